import { describe, expect, it } from 'vitest'
import { applyComparison, comparisonGroups, gridOf, settleComparisons, type CaseResult, type DatasetCase } from '../../../engine/datasets'
import { AWAITING_REASON } from '../../../engine/assertions/compare'
import type { AwaitingComparison } from '../../../engine/assertions/types'

const awaiting = (output: string, pass = true, score = 1): AwaitingComparison => ({
  assertion: { type: 'select-best', value: 'the clearest', grader: 'openai:gpt-grader' }, output, pass, score, reason: pass ? 'All assertions passed' : 'Expected output to contain "x"',
})
const cell = (test: string, k: number, label: string): DatasetCase => ({ id: `${test} · ${label}`, input: { q: test, cell: k }, tags: [`test:${test}`] })
const waiting = (id: string, output: string, repeat = 1, pass = true): CaseResult => ({
  case_id: id, repeat, status: 'succeeded', verdict: 'fail', score: pass ? 1 : 0, run_id: `run-${id}-${repeat}`,
  checks: [{ name: 'contains', passed: pass, score: pass ? 1 : 0, reason: 'x' }, { name: 'select-best', passed: false, score: 0, reason: AWAITING_REASON }],
  awaiting_comparison: awaiting(output, pass, pass ? 1 : 0),
})

describe('select-best across a test\'s cells', () => {
  const cases = [cell('a', 2, 'p · loud'), cell('a', 1, 'p · quiet'), cell('b', 1, 'p · quiet'), cell('b', 2, 'p · loud')]

  it('groups the waiting cells by test and repeat, in the grid\'s order, leaving errored cells and decided ones out', () => {
    const results: CaseResult[] = [
      waiting('a · p · loud', 'LOUD'), waiting('a · p · quiet', 'quiet'), waiting('a · p · loud', 'LOUD 2', 2), waiting('a · p · quiet', 'quiet 2', 2),
      { case_id: 'b · p · quiet', repeat: 1, status: 'errored', error: 'down' }, { case_id: 'b · p · loud', repeat: 1, status: 'succeeded', verdict: 'pass' },
    ]
    const groups = comparisonGroups(results, cases)
    expect(groups.map(g => [g.test, g.repeat, g.members.map(m => m.awaiting_comparison!.output)])).toEqual([
      ['a', 1, ['quiet', 'LOUD']],
      ['a', 2, ['quiet 2', 'LOUD 2']],
    ])
  })

  it('merges the grade as promptfoo does: selected and passing without it passes; not selected takes the comparison\'s score; the waiting check is replaced', () => {
    const selected = applyComparison(waiting('a · p · quiet', 'quiet'), { run_id: 'cmp', selections: [{ type: 'select-best', weight: 1, pass: true, score: 1, reason: 'Output selected as the best: the clearest' }] }, 0)
    expect(selected).toMatchObject({ verdict: 'pass', score: 1 })
    expect(selected.checks).toEqual([
      { name: 'contains', passed: true, score: 1, reason: 'x' },
      { name: 'select-best', passed: true, score: 1, reason: 'Output selected as the best: the clearest (compared in run cmp)' },
    ])
    expect(selected).not.toHaveProperty('awaiting_comparison')
    // Selected, but it failed its own check: it fails, keeping its own score.
    const ownFailure = applyComparison(waiting('a · p · quiet', 'quiet', 1, false), { run_id: 'cmp', selections: [{ type: 'select-best', weight: 1, pass: true, score: 1, reason: 'selected' }] }, 0)
    expect(ownFailure).toMatchObject({ verdict: 'fail', score: 0 })
    const notSelected = applyComparison(waiting('a · p · loud', 'LOUD'), { run_id: 'cmp', selections: [{ type: 'select-best', weight: 1, pass: true, score: 1, reason: 'selected' }, { type: 'select-best', weight: 1, pass: false, score: 0, reason: 'Output not selected: the clearest' }] }, 1)
    expect(notSelected).toMatchObject({ verdict: 'fail', score: 0 })
  })

  it('errors the members when the comparison cannot run: never a pass, and the reason names the run', async () => {
    const results = [waiting('a · p · loud', 'LOUD'), waiting('a · p · quiet', 'quiet')]
    const settled = await settleComparisons(results, cases, async () => ({ run_id: 'cmp', error: 'the comparison run failed: the grader is down' }))
    expect(settled.map(r => [r.case_id, r.status, r.verdict, r.error])).toEqual([
      ['a · p · quiet', 'errored', undefined, 'select-best: the comparison run failed: the grader is down (compared in run cmp)'],
      ['a · p · loud', 'errored', undefined, 'select-best: the comparison run failed: the grader is down (compared in run cmp)'],
    ])
    const thrown = await settleComparisons(results, cases, async () => { throw new Error('no slot') })
    expect(thrown.every(r => r.status === 'errored' && r.error === 'select-best: no slot')).toBe(true)
  })
})

describe('the report\'s grid', () => {
  it('lays an imported suite out as tests by cells, naming each column after its prompt · provider', () => {
    expect(gridOf([cell('a', 1, 'p · quiet'), cell('a', 2, 'p · loud'), cell('b', 2, 'p · loud')])).toEqual({
      columns: ['p · quiet', 'p · loud'],
      rows: [{ test: 'a', case_ids: ['a · p · quiet', 'a · p · loud'] }, { test: 'b', case_ids: [null, 'b · p · loud'] }],
    })
  })

  it('has none for a dataset that is not a grid: a case without a cell or test tag, or a single cell', () => {
    expect(gridOf([cell('a', 1, 'x'), { id: 'other', input: {} }])).toBeUndefined()
    expect(gridOf([cell('a', 1, 'x'), cell('b', 1, 'x')])).toBeUndefined()
  })
})
