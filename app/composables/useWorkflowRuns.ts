import type { Ref } from 'vue'
import { useWorkflowStore } from '~/stores/workflow'
import type { StartedRun } from '~/utils/api'
import type { RunDetail } from '~/utils/runs'
import type { Problem } from '~/utils/validate'
import { commitFocusedField } from '~/utils/commit-field'

const errorMessage = (error: unknown, fallback: string) => (error as { data?: { message?: string } }).data?.message ?? fallback
const invalidMessage = (problems: readonly Problem[], say: (problem: Problem) => string) => {
  const first = problems[0] ? say(problems[0]).replace(/\.$/, '') : 'see the steps marked on the canvas'
  return `The workflow is invalid and was not saved: ${first}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}.`
}

/**
 * The editor's runs: the one shown (followed live over SSE, then read whole once it finishes),
 * starting and cancelling one, and two past runs put side by side.
 */
export function useWorkflowRuns(message: Ref<string>, save: () => Promise<boolean>, say: (problem: Problem) => string) {
  const store = useWorkflowStore()
  const { statuses, events, finished, follow } = useRunStream()
  const current = ref<string | null>(null)
  const inspected = ref<RunDetail | null>(null)
  const tab = ref<'run' | 'history' | 'compare'>('run')
  const historyRefresh = ref(0)
  const compared = ref<[RunDetail, RunDetail] | null>(null)

  /** A run, new or past: its events replayed onto the canvas, its steps in the inspector. */
  function show(runId: string) {
    current.value = runId
    inspected.value = null
    tab.value = 'run'
    follow(runId)
  }
  async function compare(ids: [string, string]) {
    const [a, b] = await Promise.all(ids.map(runId => $fetch<RunDetail>(`/api/runs/${runId}`)))
    // Older run on the left.
    compared.value = a!.created_at <= b!.created_at ? [a!, b!] : [b!, a!]
    tab.value = 'compare'
  }
  /**
   * Runs the saved version, saving the editor's changes first. A workflow the server would refuse
   * is not saved: its problems are the answer. Returns what went wrong, to show in the run dialog,
   * or null once the run started.
   */
  async function start(input: unknown): Promise<string | null> {
    commitFocusedField()
    if (store.dirty) {
      try {
        const checked = await $fetch<{ ok: boolean, problems: Problem[] }>('/api/workflows/validate', { method: 'POST', body: store.doc })
        if (!checked.ok) return invalidMessage(checked.problems, say)
      }
      catch (error) {
        return errorMessage(error, 'Could not check the workflow.')
      }
      if (!(await save())) return message.value || 'Could not save the workflow.'
    }
    try {
      const run = await $fetch<StartedRun>(`/api/workflows/${store.id}/runs`, { method: 'POST', body: { input } })
      show(run.id)
      message.value = ''
      return null
    }
    catch (error) {
      return errorMessage(error, 'Could not start the run.')
    }
  }
  /** Stops the run; one whose process is gone is marked interrupted (the stream then reports its end). */
  async function cancel() {
    if (!current.value) return
    try {
      await $fetch(`/api/runs/${current.value}/cancel`, { method: 'POST' })
    }
    catch (error) {
      message.value = errorMessage(error, 'Could not cancel the run.')
    }
  }
  watch(finished, async (result) => {
    if (result && current.value) inspected.value = await $fetch<RunDetail>(`/api/runs/${current.value}`)
    historyRefresh.value++
  })

  return { statuses, events, finished, current, inspected, tab, historyRefresh, compared, show, compare, start, cancel }
}
