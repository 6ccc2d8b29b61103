import { z } from 'zod'
import { JudgeflowError } from '~~/engine'
import { compareWithBaseline, summarizeCases, verdictLabels, type DatasetCase, type DatasetReport } from '~~/engine/datasets'
import { useJudgeflow } from '~~/server/utils/context'
import { notFound, readQueryWith, routeId } from '~~/server/utils/http'

const querySchema = z.object({ baseline: z.string().min(1, 'is required: the id of an earlier dataset run of the same dataset') })
const headline = (id: string, r: DatasetReport) => ({
  id, version: r.dataset.version, cases: r.cases, passed: r.passed, failed: r.failed, errored: r.errored,
  pass_rate: r.pass_rate, pass_rate_ci: r.pass_rate_ci, mean_score: r.mean_score, kappa: r.agreement?.kappa ?? null,
})

/** Two finished dataset runs of one dataset side by side: changed cases against their labels, regressions, fixes, score deltas, McNemar's p. */
export default defineEventHandler(async (event) => {
  const { baseline } = await readQueryWith(event, querySchema)
  const { store } = useJudgeflow()
  const [current, before] = await Promise.all([store.datasets.getRun(routeId(event)), store.datasets.getRun(baseline)])
  if (!current) notFound('dataset run', routeId(event))
  if (!before || before.datasetId !== current.datasetId) throw new JudgeflowError('INVALID_INPUT', `baseline: "${baseline}" is not a run of the same dataset`)
  const [now, then] = [current, before].map(row => row.report as unknown as DatasetReport | null)
  if (!now || !then) throw new JudgeflowError('CONFLICT', `Dataset run "${(now ? before : current).id}" has not ended: it has no report to compare yet.`)
  const caseIds = [...new Set(now.results.map(r => r.case_id))]
  // The labels of the version this run judged: a change is read against them.
  const dataset = await store.datasets.get(current.datasetId, current.datasetVersion)
  const labels = verdictLabels((dataset?.cases ?? []) as DatasetCase[])
  const comparison = compareWithBaseline(summarizeCases(now.results), caseIds, then.results, before.id, labels)
  return { current: headline(current.id, now), baseline: headline(before.id, then), ...comparison }
})
