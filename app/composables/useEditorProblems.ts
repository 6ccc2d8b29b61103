import { useDebounceFn } from '@vueuse/core'
import type { Ref } from 'vue'
import { useWorkflowStore, type DocNode } from '~/stores/workflow'

/**
 * The editor's document checked with the engine's own schemas (in a worker: useWorkflowProblems),
 * at most every 100 ms while typing; the first time once the canvas has drawn its steps and the
 * page is idle (`validateWhenIdle`), so a large workflow shows up before its problems do and the
 * worker does not start while the canvas is being drawn. The problems are grouped by node for the
 * canvas, and by field for the selected step's form.
 */
export function useEditorProblems(selectedNode: Ref<DocNode | undefined>) {
  const store = useWorkflowStore()
  const { problems, warnings, validate: validateNow } = useWorkflowProblems()

  const validate = useDebounceFn(() => validateNow(store.id ? store.doc : null), 100)
  watch(() => store.revision, validate)
  const validateWhenIdle = () => requestIdleCallback(() => validate(), { timeout: 1000 })
  onMounted(() => {
    if (!store.doc.nodes.length) validateWhenIdle()
  })

  const problemsByNode = computed(() => {
    const out: Record<string, string[]> = {}
    for (const p of problems.value) if (p.node) (out[p.node] ??= []).push(p.message.replace(`node "${p.node}": `, ''))
    return out
  })
  const warningsOf = (nodeId: string) => warnings.value.filter(w => w.node === nodeId).map(w => w.message.replace(`node "${nodeId}": `, ''))
  const fieldErrors = computed(() => {
    const out: Record<string, string> = {}
    const node = selectedNode.value
    if (!node) return out
    for (const p of problems.value) if (p.node === node.id && p.path) out[p.path.replace(`nodes.${node.id}.`, '')] = p.message.replace(/^node "[^"]+": [^:]+: /, '')
    return out
  })

  return { problems, problemsByNode, warningsOf, fieldErrors, validateWhenIdle }
}
