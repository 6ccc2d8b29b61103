import { useJudgeflow } from '../../utils/context'
import { presentDatasetRun } from '../../utils/datasets'
import { notFound, routeId } from '../../utils/http'

/** A dataset run: its status and progress (cases done so far), and its report once finished. */
export default defineEventHandler(async (event) => {
  const { store, datasets } = useJudgeflow()
  const row = await store.datasets.getRun(routeId(event))
  if (!row) notFound('dataset run', routeId(event))
  const cases = await store.datasets.runCases(row.id)
  const done = cases.filter(c => c.status !== 'running')
  const progress = datasets.progress(row.id) ?? {
    id: row.id, status: row.status, total: done.length, done: done.length,
    passed: done.filter(c => c.status === 'succeeded' && (c.result as { verdict?: string } | null)?.verdict === 'pass').length,
    failed: done.filter(c => c.status === 'succeeded' && (c.result as { verdict?: string } | null)?.verdict !== 'pass').length,
    errored: done.filter(c => c.status === 'errored').length,
  }
  return { ...presentDatasetRun(row), progress, report: row.report }
})
