/**
 * A dataset run against an earlier one of the same dataset, case by case: the cases whose outcome
 * changed, regressions and fixes among them, score deltas, and McNemar's exact test on the cases
 * judged in both (neither errored nor missing in either).
 *
 * A case labelled with `expected.verdict` is judged against its label, not against "pass": a
 * change that now disagrees with the label is a regression, one that now agrees is a fix (so
 * pass → fail on a case labelled fail is a fix, and fail → pass on it a regression). A case
 * without a label keeps the plain rule: passed → failed is a regression, failed → passed a fix.
 * McNemar's test stays on the pass rate: its discordant pairs are the pass → fail and fail → pass
 * changes, whatever the labels.
 */
import { z } from 'zod'
import { JudgeflowError } from '../errors'
import { formatPath } from '../graph/path'
import { summarizeCases, type CaseRun, type CaseSummary } from './outcomes'
import { caseRunStatuses, verdicts, type Verdict } from './schema'
import { mcnemarExact, round4 } from './stats'
import { asSentence } from '../text/sentence'

export interface ScoreDelta {
  case_id: string
  before: number
  after: number
  delta: number
}

/** A case judged in both runs whose outcome changed, and what that means against its label. */
export interface OutcomeChange {
  case_id: string
  before: 'passed' | 'failed'
  after: 'passed' | 'failed'
  /** The case's `expected.verdict`; null when it has none. */
  expected: Verdict | null
  /** now_agrees / now_disagrees with the label; null when the case has none. */
  label: 'now_agrees' | 'now_disagrees' | null
}

export interface BaselineComparison {
  /** The baseline: its dataset run id, else the label it was given. */
  report: string
  /** The changed cases that got worse: now disagreeing with their label, or passed → failed when unlabelled. */
  regressions: string[]
  /** The changed cases that got better: now agreeing with their label, or failed → passed when unlabelled. */
  fixes: string[]
  /** Every case whose outcome changed, in dataset order. */
  changes: OutcomeChange[]
  /** Two-sided; 1 when no case changed its outcome. */
  mcnemar_p: number
  /** The cases scored in both runs, in dataset order. */
  score_deltas: ScoreDelta[]
}

/** How every report format says what a regression is, after looking at whether any change had a label. */
export function regressionRule(comparison: Pick<BaselineComparison, 'changes'>): string {
  // Reports stored before changes were kept have none: the plain rule was theirs.
  return (comparison.changes ?? []).some(c => c.label !== null)
    ? 'read against the labels, a regression is a case that now disagrees with its label and a fix one that now agrees; a case without a label regresses from passed to failed'
    : 'a regression passed before and fails now, a fix failed before and passes now'
}

/** One changed case as the reports list it: `passed → failed, now agrees with the label`. */
export function changeText(change: OutcomeChange): string {
  const label = change.label === null ? '' : `, ${change.label === 'now_agrees' ? 'now agrees' : 'now disagrees'} with the label (${change.expected})`
  return `${change.before} → ${change.after}${label}`
}

/** p-values keep 4 significant digits, so a small one does not round to 0. */
export const roundP = (p: number) => Number(p.toPrecision(4))

export function compareWithBaseline(
  current: ReadonlyMap<string, CaseSummary<CaseRun>>,
  caseIds: readonly string[],
  baselineResults: readonly CaseRun[],
  label: string,
  labels: ReadonlyMap<string, Verdict> = new Map(),
): BaselineComparison {
  const before = summarizeCases(baselineResults)
  const regressions: string[] = []
  const fixes: string[] = []
  const changes: OutcomeChange[] = []
  let passToFail = 0, failToPass = 0
  const scoreDeltas: ScoreDelta[] = []
  for (const id of caseIds) {
    const now = current.get(id)
    const then = before.get(id)
    if (!now || !then) continue
    if (then.outcome !== now.outcome && then.outcome !== 'errored' && now.outcome !== 'errored') {
      const expected = labels.get(id) ?? null
      const agrees = expected === null ? null : (now.outcome === 'passed') === (expected === 'pass')
      const better = agrees ?? now.outcome === 'passed'
      ;(better ? fixes : regressions).push(id)
      if (now.outcome === 'failed') passToFail++
      else failToPass++
      changes.push({ case_id: id, before: then.outcome, after: now.outcome, expected, label: agrees === null ? null : agrees ? 'now_agrees' : 'now_disagrees' })
    }
    if (then.score !== null && now.score !== null) {
      scoreDeltas.push({ case_id: id, before: round4(then.score), after: round4(now.score), delta: round4(now.score - then.score) })
    }
  }
  return {
    report: label,
    regressions,
    fixes,
    changes,
    mcnemar_p: roundP(mcnemarExact(passToFail, failToPass)),
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
    throw new JudgeflowError('INVALID_INPUT', asSentence(`${where} is not a report written by judgeflow test --report: ${listed.join('; ')}${more}`))
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

/** The cases' `expected.verdict` labels by case id (cases without one are left out). */
export function verdictLabels(cases: ReadonlyArray<{ id: string, expected?: { verdict?: Verdict } }>): Map<string, Verdict> {
  const labels = new Map<string, Verdict>()
  for (const c of cases) if (c.expected?.verdict) labels.set(c.id, c.expected.verdict)
  return labels
}

function missing(issue: z.core.$ZodIssue): boolean {
  return (issue.code === 'invalid_type' || issue.code === 'invalid_value') && issue.input === undefined
}
