import { toRaw } from 'vue'
import { useWorkflowStore, type WorkflowDoc } from '~/stores/workflow'

/**
 * The workflow being edited as plain objects, read again after each change of it (the store's
 * revision), for a computed value that walks the whole graph: read through its reactive proxies,
 * every step and edge of a 200-step workflow was tracked, and opening a step's settings took most
 * of the click's time in those walks.
 */
export function usePlainDoc(): WorkflowDoc {
  const store = useWorkflowStore()
  void store.revision
  return toRaw(store.doc)
}
