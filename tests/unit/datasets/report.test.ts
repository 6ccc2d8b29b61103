import { describe, expect, it } from 'vitest'
import { recommendedThreshold } from '../../../engine/datasets/agreement'
import { exitCodeOf, gatesHold } from '../../../engine/datasets/gates'
import { OutcomeCounts } from '../../../engine/datasets/outcomes'
import { buildDatasetReport } from '../../../engine/datasets/report'
import type { CaseResult } from '../../../engine/datasets/schema'
import { dataset, results } from './fixture'

const target = { workflow_id: 'wf-1' }

describe('a report of cases run twice (fixture.ts)', () => {
  const report = buildDatasetReport({ dataset, target, results })

  it('counts each case once: errored when any run errored, else failed when any run failed', () => {
    expect(report).toMatchObject({ dataset: { id: 'ds-1', name: 'support', version: 3 }, target, cases: 6, passed: 2, failed: 2, errored: 1 })
    // c's second run passed, but c errored once: never a pass.
    expect(report.flaky).toEqual(['b'])
  })
  it('counts cases the same one run at a time (the progress) as all at once (the report), cancelled runs left out (and counted as not run)', () => {
    const cancelled: CaseResult[] = [{ case_id: 'f', repeat: 1, status: 'cancelled', run_id: 'f1', error: 'the dataset run was cancelled' }, { case_id: 'e', repeat: 3, status: 'cancelled' }]
    const counts = new OutcomeCounts()
    for (const result of [...results, ...cancelled]) counts.add(result)
    expect(counts).toMatchObject({ passed: report.passed, failed: report.failed, errored: report.errored, runs: results.length, notRun: 2 })
    const withCancelled = buildDatasetReport({ dataset, target, results: [...results, ...cancelled] })
    expect(withCancelled).toEqual(report)
  })
  it('leaves errored cases out of the pass rate and scores', () => {
    // pass_rate = 2 / (2 + 2); mean_score = (0.85 + 0.55 + 0.25 + 0.95) / 4 = 0.65
    expect(report.pass_rate).toBe(0.5)
    expect(report.mean_score).toBe(0.65)
    // Wilson 2 of 4: centre (0.5 + 0.480182) / 1.960365 = 0.5, half 0.999795 · √(0.0625 + 0.060023) = 0.349961 → [0.150039, 0.849961]
    expect(report.pass_rate_ci).toEqual([0.15, 0.85])
    expect(report.mean_score_ci![0]).toBeLessThan(0.65)
    expect(report.mean_score_ci![1]).toBeGreaterThan(0.65)
  })
  it('breaks down by tag', () => {
    // billing: a passed, b failed, c errored; refunds: c errored, d failed
    expect(report.by_tag).toEqual({ billing: { cases: 3, passed: 1, pass_rate: 0.5 }, refunds: { cases: 2, passed: 0, pass_rate: 0 } })
  })
  it('totals latency (nearest-rank percentiles) and tokens over every run', () => {
    // 100 … 1000 ms: p50 the 5th, p95 the 10th; 9 runs with tokens
    expect(report.latency_ms).toEqual({ p50: 500, p95: 1000, total: 5500 })
    expect(report.tokens).toMatchObject({ input: 90, output: 45 })
    // These runs used tokens and kept no cost: the total is not known, never a partial sum.
    expect(report.cost_usd).toBeNull()
  })
  it('sums the generation\'s and the judge\'s tokens apart, and the runs\' costs', () => {
    const priced = (case_id: string, repeat: number, cost_usd: number | null): CaseResult => ({
      case_id, repeat, status: 'succeeded', verdict: 'pass', cost_usd,
      tokens: { input: 30, output: 12, generation: { input: 10, output: 8 }, judge: { input: 20, output: 4 } },
    })
    const report = buildDatasetReport({ dataset, target, results: [priced('a', 1, 0.0015), priced('b', 1, 0.00025), { case_id: 'c', repeat: 1, status: 'errored', error: 'bad input' }] })
    expect(report.tokens).toEqual({ input: 60, output: 24, generation: { input: 20, output: 16 }, judge: { input: 40, output: 8 } })
    expect(report.cost_usd).toBe(0.00175)
    expect(report.results[0]!.cost_usd).toBe(0.0015)
    const unknown = buildDatasetReport({ dataset, target, results: [priced('a', 1, 0.0015), priced('b', 1, null)] })
    expect(unknown.cost_usd).toBeNull()
  })
  it('lists every run in case order, then by repeat, absent fields null', () => {
    expect(report.results.map(r => `${r.case_id}${r.repeat}`)).toEqual(['a1', 'a2', 'b1', 'b2', 'c1', 'c2', 'd1', 'd2', 'e1', 'e2'])
    expect(report.results[4]).toEqual({ case_id: 'c', repeat: 1, status: 'errored', verdict: null, score: null, run_id: 'c1', latency_ms: 1000, error: 'provider down: 503 <Service & "Unavailable">', output: null, reason: null, checks: null })
    expect(report.results[0]).toMatchObject({ verdict: 'pass', score: 0.9, confidence: 0.9, error: null })
  })
  it('has no baseline and no gates unless asked', () => {
    expect(report).not.toHaveProperty('baseline')
    expect(report.gates).toEqual([])
  })
  it('refuses a result of a case the dataset does not have', () => {
    expect(() => buildDatasetReport({ dataset, target, results: [...results, { case_id: 'zz', repeat: 1, status: 'errored' }] })).toThrow(/case "zz", which is not in dataset "support" version 3/)
  })
})

describe('what the repeats say (fixture.ts: each case run twice)', () => {
  const report = buildDatasetReport({ dataset, target, results })

  it('gives pass^N (every repeat passed) and pass@N (a repeat passed) over the judged cases', () => {
    // Judged: a (pass, pass), b (pass, fail), d (fail, fail), e (pass, pass); c errored, f never ran.
    expect(report.pass_all_repeats).toBe(0.5)
    expect(report.pass_any_repeat).toBe(0.75)
    expect(report.pass_all_repeats).toBe(report.pass_rate)
    // And each case's, on its results: errored c has none.
    const perCase = (id: string) => report.results.find(r => r.case_id === id)!
    expect(['a', 'b', 'c', 'd'].map(id => [perCase(id).pass_all_repeats, perCase(id).pass_any_repeat])).toEqual([[true, true], [false, true], [undefined, undefined], [false, false]])
  })
  it('puts each case\'s score spread (sample SD, min, max) on its results, only where two runs have a score', () => {
    const spreadOf = (id: string) => report.results.filter(r => r.case_id === id).map(r => [r.score_sd, r.score_min, r.score_max])
    // a: 0.9, 0.8 → √((0.05² + 0.05²) / 1) = 0.0707
    expect(spreadOf('a')).toEqual([[0.0707, 0.8, 0.9], [0.0707, 0.8, 0.9]])
    // b: 0.7, 0.4 → √(2 · 0.15²) = 0.2121
    expect(spreadOf('b')[0]).toEqual([0.2121, 0.4, 0.7])
    expect(spreadOf('e')[0]).toEqual([0, 0.95, 0.95])
    // c: one run errored, one scored: no spread.
    expect(spreadOf('c')).toEqual([[undefined, undefined, undefined], [undefined, undefined, undefined]])
  })
  it('leaves the repeat figures out of a run without repeats', () => {
    const once = buildDatasetReport({ dataset, target, results: results.filter(r => r.repeat === 1) })
    expect(once).not.toHaveProperty('pass_all_repeats')
    expect(once).not.toHaveProperty('pass_any_repeat')
    expect(once.results.some(r => 'score_sd' in r)).toBe(false)
  })
  it('gates the share of flaky cases among those with two succeeded runs', () => {
    // a, b, d, e ran twice without error, b flaky: 1 / 4. c had one succeeded run: it could not be flaky.
    const gated = (max_flaky: number) => buildDatasetReport({ dataset, target, results, gates: { max_flaky, max_errors: 1 } }).gates[0]
    expect(gated(0.25)).toEqual({ gate: 'max_flaky', required: 0.25, actual: 0.25, passed: true })
    expect(gated(0.2)).toEqual({ gate: 'max_flaky', required: 0.2, actual: 0.25, passed: false })
    const once = buildDatasetReport({ dataset, target, results: results.filter(r => r.repeat === 1), gates: { max_flaky: 1 } })
    expect(once.gates[0]).toEqual({ gate: 'max_flaky', required: 1, actual: null, passed: false })
  })
})

describe('a judge panel\'s agreement', () => {
  const panelRun = (case_id: string, repeat: number, verdicts: boolean[]): CaseResult => ({
    case_id, repeat, status: 'succeeded', verdict: verdicts.filter(Boolean).length * 2 > verdicts.length ? 'pass' : 'fail', score: 0.5,
    panel: { judges: verdicts.map((passed, i) => ({ model: `openai:judge-${i}`, passed, overall_score: passed ? 0.9 : 0.2 })), agreement: verdicts.length === 3 && new Set(verdicts).size === 2 ? 0.333 : 1 },
  })
  const unlabelled = { ...dataset, cases: dataset.cases.map(({ expected: _, ...c }) => c) }
  const panelResults = [panelRun('a', 1, [true, true, true]), panelRun('b', 1, [true, true, false]), panelRun('d', 1, [false, false, false]), panelRun('e', 1, [true, false, false])]

  it('gives Fleiss\' κ and the pairs agreeing over the runs the panel judged, without labels too', () => {
    const report = buildDatasetReport({ dataset: unlabelled, target, results: panelResults })
    // Pᵢ = 1, 1/3, 1, 1/3 → P̄ = 2/3; p_pass = 6/12 → κ = 1/3.
    expect(report.agreement).toMatchObject({
      labelled: 0, kappa: null, judges_kappa: 0.3333,
      judges: { models: ['openai:judge-0', 'openai:judge-1', 'openai:judge-2'], runs: 4, pair_agreement: 0.6665 },
    })
    expect(report.results[1]!.panel!.judges.map(j => j.passed)).toEqual([true, true, false])
  })
  it('sits beside the agreement with people when the cases are labelled', () => {
    const report = buildDatasetReport({ dataset, target, results: panelResults })
    expect(report.agreement).toMatchObject({ labelled: 3, judges_kappa: 0.3333, judges: { runs: 4 } })
    expect(report.agreement!.kappa).not.toBeNull()
  })
  it('has no agreement at all without labels or a panel', () => {
    expect(buildDatasetReport({ dataset: unlabelled, target, results })).not.toHaveProperty('agreement')
  })
})

describe('agreement with the labels', () => {
  const { agreement } = buildDatasetReport({ dataset, target, results })

  it('uses the labelled cases that did not error', () => {
    // a: pass/pass, b: fail/fail, d: pass/fail (c errored)
    expect(agreement).toMatchObject({ labelled: 3, confusion: { pass_pass: 1, pass_fail: 1, fail_pass: 0, fail_fail: 1 } })
    // accuracy 2/3; majority expected verdict (pass) 2/3
    expect(agreement).toMatchObject({ accuracy: 0.6667, baseline_accuracy: 0.6667 })
    // po = 2/3; pe = (2/3)(1/3) + (1/3)(2/3) = 4/9; κ = (2/9)/(5/9) = 0.4
    expect(agreement!.kappa).toBe(0.4)
    // fail precision = 1/(1 + 1), recall = 1/(1 + 0)
    expect(agreement).toMatchObject({ fail_precision: 0.5, fail_recall: 1 })
    // judged 0.85, 0.55, 0.25 → ranks 3, 2, 1; expected 0.9, 0.3, 0.5 → ranks 3, 1, 2; ρ = 1/√(2·2) = 0.5
    expect(agreement!.spearman).toBe(0.5)
  })
  it('sweeps thresholds and recommends the best, ties going to the one closest to 0.5', () => {
    // t ≤ 0.25: all pass, κ 0; 0.25 < t ≤ 0.55: a, b pass, d fails: po 1/3, pe 5/9, κ −0.5;
    // 0.55 < t ≤ 0.85: a passes, κ 0.4; t > 0.85: all fail, κ 0
    const kappaAt = Object.fromEntries(agreement!.threshold_sweep.map(s => [s.threshold, s.kappa]))
    expect(agreement!.threshold_sweep).toHaveLength(21)
    expect([kappaAt[0], kappaAt[0.25], kappaAt[0.3], kappaAt[0.55], kappaAt[0.6], kappaAt[0.85], kappaAt[0.9], kappaAt[1]])
      .toEqual([0, 0, -0.5, -0.5, 0.4, 0.4, 0, 0])
    expect(agreement!.recommended_threshold).toBe(0.6)
    expect(recommendedThreshold([{ threshold: 0.3, kappa: 0.5 }, { threshold: 0.7, kappa: 0.5 }, { threshold: 0.9, kappa: null }])).toBe(0.3)
    expect(recommendedThreshold([{ threshold: 0.5, kappa: null }])).toBeNull()
  })
  it('tabulates accuracy by confidence band, leaving empty bands out', () => {
    // d: 0.3 (wrong); b: (0.5 + 0.7)/2 = 0.6, the lower bound of its band (right); a: 0.875 (right)
    expect(agreement!.reliability).toEqual([
      { confidence: [0.2, 0.4], cases: 1, accuracy: 0 },
      { confidence: [0.6, 0.8], cases: 1, accuracy: 1 },
      { confidence: [0.8, 1], cases: 1, accuracy: 1 },
    ])
  })
  it('has a κ interval that is the same on every build', () => {
    const again = buildDatasetReport({ dataset, target, results })
    expect(again.agreement!.kappa_ci).toEqual(agreement!.kappa_ci)
    expect(again.mean_score_ci).toEqual(buildDatasetReport({ dataset, target, results }).mean_score_ci)
  })
  it('is absent when no case is labelled', () => {
    const unlabelled = { ...dataset, cases: dataset.cases.map(({ expected: _, ...c }) => c) }
    expect(buildDatasetReport({ dataset: unlabelled, target, results })).not.toHaveProperty('agreement')
  })
})

describe('against a baseline', () => {
  // Before: a failed 0.6, b passed 0.8, c passed 0.7, d passed 0.7, e passed 0.95.
  const before: CaseResult[] = [['a', 'fail', 0.6], ['b', 'pass', 0.8], ['c', 'pass', 0.7], ['d', 'pass', 0.7], ['e', 'pass', 0.95]]
    .map(([case_id, verdict, score]) => ({ case_id: case_id as string, repeat: 1, status: 'succeeded', verdict: verdict as 'pass' | 'fail', score: score as number }))
  const baseline = buildDatasetReport({ dataset, target, results: before, dataset_run_id: 'dr-1' })
  const report = buildDatasetReport({ dataset, target, results, baseline, gates: { no_regressions: true, max_errors: 1 } })

  it('judges a labelled case\'s change against its label, and tests the pass-rate change with McNemar', () => {
    // c errored now: neither. b (labelled fail) passed → failed: now agrees, a fix; d (labelled pass)
    // passed → failed: now disagrees, a regression; a (labelled pass) failed → passed: a fix.
    // McNemar on the pass rate: 2 pass → fail, 1 fail → pass: n = 3, 2·(1 + 3)/8 = 1
    expect(report.baseline).toMatchObject({ report: 'dr-1', regressions: ['d'], fixes: ['a', 'b'], mcnemar_p: 1 })
    expect(report.baseline!.changes).toEqual([
      { case_id: 'a', before: 'failed', after: 'passed', expected: 'pass', label: 'now_agrees' },
      { case_id: 'b', before: 'passed', after: 'failed', expected: 'fail', label: 'now_agrees' },
      { case_id: 'd', before: 'passed', after: 'failed', expected: 'pass', label: 'now_disagrees' },
    ])
  })
  it('counts fail → pass on a case labelled fail as a regression', () => {
    const judged = (verdict: 'pass' | 'fail'): CaseResult[] => [{ case_id: 'b', repeat: 1, status: 'succeeded', verdict, score: verdict === 'pass' ? 0.9 : 0.1 }]
    const then = buildDatasetReport({ dataset, target, results: judged('fail'), dataset_run_id: 'dr-0' })
    const now = buildDatasetReport({ dataset, target, results: judged('pass'), baseline: then })
    expect(now.baseline).toMatchObject({ regressions: ['b'], fixes: [], changes: [{ case_id: 'b', label: 'now_disagrees' }] })
  })
  it('keeps passed → failed as the regression of a case without a label', () => {
    const plain = { ...dataset, cases: dataset.cases.map(({ expected: _expected, ...c }) => c) }
    const then = buildDatasetReport({ dataset: plain, target, results: before, dataset_run_id: 'dr-1' })
    const now = buildDatasetReport({ dataset: plain, target, results, baseline: then })
    expect(now.baseline).toMatchObject({ regressions: ['b', 'd'], fixes: ['a'], mcnemar_p: 1 })
    expect(now.baseline!.changes.map(c => c.label)).toEqual([null, null, null])
  })
  it('gives the score delta of every case scored both times', () => {
    expect(report.baseline!.score_deltas).toEqual([
      { case_id: 'a', before: 0.6, after: 0.85, delta: 0.25 },
      { case_id: 'b', before: 0.8, after: 0.55, delta: -0.25 },
      { case_id: 'd', before: 0.7, after: 0.25, delta: -0.45 },
      { case_id: 'e', before: 0.95, after: 0.95, delta: 0 },
    ])
  })
  it('fails the no-regressions gate and names a baseline without a run id by its label', () => {
    expect(report.gates).toEqual([
      { gate: 'no_regressions', required: 0, actual: 1, passed: false },
      { gate: 'max_errors', required: 1, actual: 1, passed: true },
    ])
    const unnamed = buildDatasetReport({ dataset, target, results: before })
    expect(buildDatasetReport({ dataset, target, results, baseline: unnamed, baseline_label: 'last-week.json' }).baseline!.report).toBe('last-week.json')
  })
})

describe('gates and exit codes', () => {
  const withGates = (gates: Parameters<typeof buildDatasetReport>[0]['gates']) => buildDatasetReport({ dataset, target, results, gates })

  it('checks each gate asked for, max_errors always (default 0)', () => {
    const report = withGates({ min_pass_rate: 0.5, min_kappa: 0.5, max_errors: 1 })
    expect(report.gates).toEqual([
      { gate: 'min_pass_rate', required: 0.5, actual: 0.5, passed: true },
      { gate: 'min_kappa', required: 0.5, actual: 0.4, passed: false },
      { gate: 'max_errors', required: 1, actual: 1, passed: true },
    ])
    expect(gatesHold(report)).toBe(false)
    expect(exitCodeOf(report)).toBe(1)
  })
  it('exits 0 when every gate holds, 2 when errored cases exceed max_errors', () => {
    expect(exitCodeOf(withGates({ min_pass_rate: 0.5, max_errors: 1 }))).toBe(0)
    expect(gatesHold(withGates({ min_pass_rate: 0.5, max_errors: 1 }))).toBe(true)
    expect(withGates({}).gates).toEqual([{ gate: 'max_errors', required: 0, actual: 1, passed: false }])
    expect(exitCodeOf(withGates({ min_pass_rate: 0.5 }))).toBe(2)
    // Without gates, errored cases are still held to 0.
    expect(exitCodeOf(buildDatasetReport({ dataset, target, results }))).toBe(2)
  })
  it('fails a gate with nothing to measure', () => {
    expect(withGates({ no_regressions: true, max_errors: 5 }).gates[0]).toEqual({ gate: 'no_regressions', required: 0, actual: null, passed: false })
    const none = buildDatasetReport({ dataset, target, results: [], gates: { min_pass_rate: 0.9, min_kappa: 0.2 } })
    expect(none.gates.slice(0, 2).map(g => [g.actual, g.passed])).toEqual([[null, false], [null, false]])
  })
})
