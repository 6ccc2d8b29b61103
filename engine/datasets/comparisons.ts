import { AWAITING_REASON } from '../assertions/compare'
import type { AssertionGrade, AwaitingComparison } from '../assertions/types'
import type { CaseCheck } from './case-checks'
import type { CaseResult, DatasetCase } from './schema'
import { testOf } from './grid'

/**
 * promptfoo's comparisons of a test's outputs (`select-best`), decided once a dataset run has run
 * every cell of the test: the cells' outputs go to one grader call, in the grid's order, and each
 * cell's verdict takes the comparison's as promptfoo merges it (the test passes when it passed
 * without the comparison and the comparison passed it; a cell not selected takes its score).
 * The comparison is a run of its own, so it opens in the run inspector like any other.
 */

/** The cells of one test (one repeat of it) that wait for the same comparison, in the grid's order. */
export interface ComparisonGroup {
  /** The test's name (its cells share the tag `test:<name>`), for the comparison run's name. */
  test: string
  repeat: number
  members: CaseResult[]
  awaiting: AwaitingComparison
}

/** What the comparison run gave: one grade per member, in order, or why it gave none. */
export type ComparisonOutcome = { run_id: string, selections: AssertionGrade[] } | { run_id?: string, error: string }

/** The succeeded case runs waiting for a comparison, grouped by test and repeat, each group in the grid's order. */
export function comparisonGroups(results: readonly CaseResult[], cases: readonly DatasetCase[]): ComparisonGroup[] {
  const byId = new Map(cases.map((c, i) => [c.id, { c, i }]))
  const groups = new Map<string, ComparisonGroup>()
  for (const result of results) {
    if (result.status !== 'succeeded' || !result.awaiting_comparison) continue
    const found = byId.get(result.case_id)
    const test = (found ? testOf(found.c) : undefined) ?? result.case_id
    const key = `${test}\n${result.repeat}`
    const group = groups.get(key) ?? { test, repeat: result.repeat, members: [], awaiting: result.awaiting_comparison }
    group.members.push(result)
    groups.set(key, group)
  }
  const place = (result: CaseResult) => {
    const found = byId.get(result.case_id)
    const cell = found?.c.input.cell
    return typeof cell === 'number' ? cell : found?.i ?? 0
  }
  for (const group of groups.values()) {
    group.members.sort((a, b) => place(a) - place(b))
    // The first cell's grader compares, whichever cell ended first.
    group.awaiting = group.members[0]!.awaiting_comparison!
  }
  return [...groups.values()]
}

/** The workflow and input of a group's comparison: the assertions evaluator given the cells' outputs as candidates. */
export function comparisonRun(group: ComparisonGroup): { definition: Record<string, unknown>, input: Record<string, unknown> } {
  const { assertion } = group.awaiting
  return {
    definition: {
      name: `${assertion.type}: ${group.test}${group.repeat > 1 ? ` (repeat ${group.repeat})` : ''}`.slice(0, 200),
      nodes: [
        { id: 'input', type: 'input', config: { fields: { candidates: { type: 'array' } } } },
        { id: 'compare', type: 'evaluator', config: { evaluation_type: 'assertions', model: assertion.grader, assert: [assertion], candidates: '{{input.candidates}}' } },
      ],
      edges: [{ from: 'input', to: 'compare' }],
    },
    input: { candidates: group.members.map(member => ({ id: member.case_id, text: member.awaiting_comparison!.output })) },
  }
}

/** The grades a finished comparison run gave (its evaluator's `selections`), or why there are none. */
export function selectionsOf(output: unknown, members: number): AssertionGrade[] | string {
  const selections = (output as { selections?: unknown } | null)?.selections
  if (!Array.isArray(selections) || selections.length !== members) return `the comparison gave ${Array.isArray(selections) ? selections.length : 'no'} grades for ${members} outputs`
  return selections as AssertionGrade[]
}

/** A member's result with the comparison's grade merged in, as promptfoo merges it; errored when the comparison could not run. */
export function applyComparison(result: CaseResult, outcome: ComparisonOutcome, index: number): CaseResult {
  const { awaiting_comparison: awaiting, ...rest } = result
  if (!awaiting) return result
  const runNote = outcome.run_id ? ` (compared in run ${outcome.run_id})` : ''
  if ('error' in outcome) {
    const { verdict: _verdict, score: _score, ...errored } = rest
    return { ...errored, status: 'errored', error: `${awaiting.assertion.type}: ${outcome.error}${runNote}` }
  }
  const grade = outcome.selections[index]!
  const pass = awaiting.pass && grade.pass
  const check: CaseCheck = { name: awaiting.assertion.type, passed: grade.pass, score: grade.score, reason: `${grade.reason}${runNote}` }
  const checks = (rest.checks ?? []).filter(c => c.reason !== AWAITING_REASON)
  return { ...rest, verdict: pass ? 'pass' : 'fail', score: grade.pass ? awaiting.score : grade.score, checks: [...checks, check] }
}

/**
 * Decides every comparison the results wait for, each by one run (`run`), and returns the results
 * that changed. Groups run one after another; a group whose run fails errors its members.
 */
export async function settleComparisons(
  results: readonly CaseResult[], cases: readonly DatasetCase[], run: (group: ComparisonGroup) => Promise<ComparisonOutcome>,
): Promise<CaseResult[]> {
  const changed: CaseResult[] = []
  for (const group of comparisonGroups(results, cases)) {
    let outcome: ComparisonOutcome
    try {
      outcome = await run(group)
    }
    catch (error) {
      outcome = { error: (error as Error).message }
    }
    group.members.forEach((member, i) => changed.push(applyComparison(member, outcome, i)))
  }
  return changed
}
