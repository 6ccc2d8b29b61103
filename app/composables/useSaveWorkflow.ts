import type { Ref } from 'vue'
import { useWorkflowStore } from '~/stores/workflow'
import type { SavedWorkflow, WorkflowDetail } from '~/utils/api'
import { commitFocusedField } from '~/utils/commit-field'

/** A save refused because another version was saved after the one being edited. */
export interface SaveConflict {
  baseVersion: number
  currentVersion: number
}

interface ErrorBody { message?: string, data?: { code?: string, current_version?: number } }

/**
 * Saves the editor's document as a new version, based on the version it was loaded or last saved
 * as (`base_version`). When someone else saved in between, nothing is written and `conflict` says
 * so, for the person to settle: `reload` discards their changes for the latest version,
 * `overwrite` saves theirs as a new version on top of it.
 */
export function useSaveWorkflow(message: Ref<string>, onSaved?: (saved: SavedWorkflow) => void) {
  const store = useWorkflowStore()
  const conflict = ref<SaveConflict | null>(null)

  async function saveOn(baseVersion: number): Promise<boolean> {
    // What is being typed (Ctrl+S in a field) is part of what is saved.
    commitFocusedField()
    // Asking to save shows every step's problems, new steps' too.
    store.touchAll()
    try {
      const saved = await $fetch<SavedWorkflow>(`/api/workflows/${store.id}`, { method: 'PUT', body: { ...store.doc, base_version: baseVersion } })
      store.markSaved(saved.version)
      onSaved?.(saved)
      conflict.value = null
      message.value = `Saved version ${saved.version}.`
      return true
    }
    catch (error) {
      const body = (error as { data?: ErrorBody }).data
      if (body?.data?.code === 'VERSION_CONFLICT' && body.data.current_version) {
        conflict.value = { baseVersion, currentVersion: body.data.current_version }
        message.value = ''
      }
      else message.value = body?.message ?? 'Could not save.'
      return false
    }
  }

  async function reload() {
    try {
      const workflow = await $fetch<WorkflowDetail>(`/api/workflows/${store.id}`)
      store.load(workflow.id, workflow.version, workflow.definition)
      conflict.value = null
      message.value = `Loaded version ${workflow.version}.`
    }
    catch (error) {
      message.value = (error as { data?: ErrorBody }).data?.message ?? 'Could not load the latest version.'
    }
  }

  return {
    conflict,
    save: () => saveOn(store.version),
    overwrite: () => saveOn(conflict.value?.currentVersion ?? store.version),
    reload,
  }
}
