/**
 * A dataset run against an earlier one of the same dataset, case by case: regressions (passed
 * before, failed now), fixes (failed before, passed now), score deltas, and McNemar's exact test
 * on the cases judged in both (neither errored nor missing in either).
 */
import { z } from 'zod'
import { JudgeflowError } from '../errors'
import { formatPath } from '../graph/path'
import { summarizeCases, type CaseRun, type CaseSummary } from './outcomes'
import { caseRunStatuses, verdicts } from './schema'
import { mcnemarExact, round4 } from './stats'

export interface ScoreDelta {
  case_id: string
  before: number
  after: number
  delta: number
}

export interface BaselineComparison {
  /** The baseline: its dataset run id, else the label it was given. */
  report: string
  regressions: string[]
  fixes: string[]
  /** Two-sided; 1 when no case changed its outcome. */
  mcnemar_p: number
  /** The cases scored in both runs, in dataset order. */
  score_deltas: ScoreDelta[]
}

/** p-values keep 4 significant digits, so a small one does not round to 0. */
export const roundP = (p: number) => Number(p.toPrecision(4))

export function compareWithBaseline(
  current: ReadonlyMap<string, CaseSummary<CaseRun>>,
  caseIds: readonly string[],
  baselineResults: readonly CaseRun[],
  label: string,
): BaselineComparison {
  const before = summarizeCases(baselineResults)
  const regressions: string[] = []
  const fixes: string[] = []
  const scoreDeltas: ScoreDelta[] = []
  for (const id of caseIds) {
    const now = current.get(id)
    const then = before.get(id)
    if (!now || !then) continue
    if (then.outcome === 'passed' && now.outcome === 'failed') regressions.push(id)
    if (then.outcome === 'failed' && now.outcome === 'passed') fixes.push(id)
    if (then.score !== null && now.score !== null) {
      scoreDeltas.push({ case_id: id, before: round4(then.score), after: round4(now.score), delta: round4(now.score - then.score) })
    }
  }
  return {
    report: label,
    regressions,
    fixes,
    // The discordant pairs among the cases judged both times are exactly the regressions and the fixes.
    mcnemar_p: roundP(mcnemarExact(regressions.length, fixes.length)),
    score_deltas: scoreDeltas,
  }
}

/** Problems named in a refused baseline; the rest are counted. */
const MAX_LISTED_PROBLEMS = 5

/** What a baseline must hold of a dataset run report (the rest of the report is not read). */
export const baselineReportSchema = z.object({
  dataset: z.object({ id: z.string().min(1), name: z.string().min(1), version: z.number().int().min(1) }),
  dataset_run_id: z.string().min(1).optional(),
  results: z.array(z.object({
    case_id: z.string().min(1),
    repeat: z.number().int().min(1),
    status: z.enum(caseRunStatuses),
    verdict: z.enum(verdicts).nullable().optional(),
    score: z.number().nullable().optional(),
    confidence: z.number().nullable().optional(),
    error: z.string().nullable().optional(),
  }), { error: issue => issue.input === undefined ? undefined : 'must be a list of case results' }),
})
export type BaselineReport = z.infer<typeof baselineReportSchema>

/**
 * A report given as the baseline of a run of `dataset`: refused, naming what is wrong, unless it
 * is a dataset run report of the dataset of that name with a result for at least one of its cases.
 * (A report's dataset id is not compared: a run without a kept database gives its dataset a new id.)
 */
export function checkBaselineReport(value: unknown, dataset: { name: string, caseIds: readonly string[] }, where: string): BaselineReport {
  const parsed = baselineReportSchema.safeParse(value, { reportInput: true })
  if (!parsed.success) {
    const { issues } = parsed.error
    const listed = issues.slice(0, MAX_LISTED_PROBLEMS).map(issue => `${formatPath(issue.path) || '(top level)'}: ${missing(issue) ? 'is required' : issue.message}`)
    const more = issues.length > MAX_LISTED_PROBLEMS ? ` (and ${issues.length - MAX_LISTED_PROBLEMS} more)` : ''
    throw new JudgeflowError('INVALID_INPUT', `${where} is not a report written by judgeflow test --report: ${listed.join('; ')}${more}.`)
  }
  const report = parsed.data
  const again = 'give the report of an earlier run of this dataset'
  if (report.dataset.name !== dataset.name) {
    throw new JudgeflowError('INVALID_INPUT', `${where} is of dataset "${report.dataset.name}", not "${dataset.name}": ${again}.`)
  }
  const known = new Set(dataset.caseIds)
  if (!report.results.some(result => known.has(result.case_id))) {
    throw new JudgeflowError('INVALID_INPUT', `${where} has no result for any case of dataset "${dataset.name}": ${again}.`)
  }
  return report
}

function missing(issue: z.core.$ZodIssue): boolean {
  return (issue.code === 'invalid_type' || issue.code === 'invalid_value') && issue.input === undefined
}
