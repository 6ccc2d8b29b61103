import type { RunSummary } from '~/utils/api'
import type { RunDetail } from '~/utils/runs'

/**
 * The workflow's latest run, read when asked for (the variable picker opening), for the example
 * values of the references it lists: one request for the list, one for a run not read before.
 */
export function useLastRun(workflowId: () => string) {
  const run = useState<RunDetail | null>('judgeflow-last-run', () => null)
  async function refresh() {
    const id = workflowId()
    if (!id) return
    try {
      const [latest] = await $fetch<RunSummary[]>(`/api/workflows/${id}/runs`, { query: { limit: 1 } })
      if (!latest) run.value = null
      else if (run.value?.id !== latest.id || run.value.status !== latest.status) run.value = await $fetch<RunDetail>(`/api/runs/${latest.id}`)
    }
    catch {
      // Without a run to read, the picker lists the references without examples.
    }
  }
  return { run, refresh }
}
