import { describe, expect, it } from 'vitest'
import { caseRows, filterAndSort, filterCounts, formatOfFileName, guessFormat, kappaView, runChoice, scoreHistogram, type DatasetReport, type ReportResult } from '../../../app/utils/datasets'

const result = (case_id: string, over: Partial<ReportResult> = {}): ReportResult => ({
  case_id, repeat: 1, status: 'succeeded', verdict: 'pass', score: 0.8, run_id: `r-${case_id}`, latency_ms: 100, error: null, output: null, checks: null, ...over,
})

function reportOf(results: ReportResult[], extra: Partial<DatasetReport> = {}): DatasetReport {
  return {
    dataset: { id: 'd', name: 'd', version: 1 }, target: { evaluator: true }, cases: results.length, passed: 0, failed: 0, errored: 0,
    pass_rate: null, pass_rate_ci: null, mean_score: null, mean_score_ci: null, by_tag: {}, flaky: [], latency_ms: { p50: null, p95: null, total: 0 },
    tokens: { input: 0, output: 0 }, gates: [], results, ...extra,
  }
}

describe('dataset files in the browser', () => {
  it('reads the format from the file name, yml being YAML', () => {
    expect(formatOfFileName('cases.CSV')).toBe('csv')
    expect(formatOfFileName('a.b.jsonl')).toBe('jsonl')
    expect(formatOfFileName('cases.yml')).toBe('yaml')
    expect(formatOfFileName('cases.txt')).toBeNull()
  })

  it('guesses pasted text: one JSON value, JSON lines, YAML, else CSV', () => {
    expect(guessFormat('{ "cases": [] }')).toBe('json')
    expect(guessFormat('[{"id":"a","input":{}}]')).toBe('json')
    expect(guessFormat('{"id":"a","input":{}}\n{"id":"b","input":{}}')).toBe('jsonl')
    expect(guessFormat('- id: a\n  input: {}')).toBe('yaml')
    expect(guessFormat('name: x\ncases: []')).toBe('yaml')
    expect(guessFormat('id,question\nq1,Why?')).toBe('csv')
  })

  it('reads YAML as YAML whatever it opens with: a comment, a document marker, any key, a bare dash', () => {
    expect(guessFormat('# Support questions\ncases:\n  - id: q1\n    input: { question: "Why?" }')).toBe('yaml')
    expect(guessFormat('---\n- id: q1\n  input:\n    question: "How?"')).toBe('yaml')
    expect(guessFormat('%YAML 1.2\n---\ncases: []')).toBe('yaml')
    expect(guessFormat('description: "Questions people ask"\ncases:\n  - id: q1')).toBe('yaml')
    expect(guessFormat('"name": support\ncases: []')).toBe('yaml')
    expect(guessFormat('-\n  id: q1\n  input: { question: "Why?" }')).toBe('yaml')
    expect(guessFormat('\r\n# cases\r\n- id: q1\r\n  input: {}')).toBe('yaml')
  })

  it('keeps CSV as CSV, also when a cell holds a colon or a quote', () => {
    expect(guessFormat('question,expected_verdict\n"Why: the reason?",pass')).toBe('csv')
    expect(guessFormat('id,"question: text"\nq1,Why?')).toBe('csv')
    expect(guessFormat('question\nWhy?')).toBe('csv')
    expect(guessFormat('time 10:30,note\n1,2')).toBe('csv')
  })
})

describe('the per-case table', () => {
  const report = reportOf([
    result('q1', { score: 0.9 }),
    result('q2', { verdict: 'fail', score: 0.2 }),
    result('q3', { status: 'errored', verdict: null, score: null, error: 'provider down' }),
    result('q10', { score: 0.5 }),
    result('q4', { repeat: 1, verdict: 'pass', score: 0.7 }),
    result('q4', { repeat: 2, verdict: 'fail', score: 0.4 }),
  ], { flaky: ['q4'], baseline: { report: 'b', regressions: ['q2'], fixes: [], changes: [], mcnemar_p: 1, score_deltas: [{ case_id: 'q2', before: 0.8, after: 0.2, delta: -0.6 }] } })

  it('marks flaky cases, and regressions and deltas from the report’s baseline unless a comparison is given', () => {
    const rows = caseRows(report)
    expect(rows.find(r => r.case_id === 'q2')).toMatchObject({ regressed: true, delta: -0.6, flaky: false })
    expect(rows.filter(r => r.flaky).map(r => r.repeat)).toEqual([1, 2])
    const other = caseRows(report, { regressions: ['q1'], score_deltas: [{ case_id: 'q1', delta: 0.1 }] })
    expect(other.filter(r => r.regressed).map(r => r.case_id)).toEqual(['q1'])
    expect(other.find(r => r.case_id === 'q2')!.delta).toBeNull()
  })

  it('counts and keeps the failed (judged, not pass), errored, regressed and flaky runs', () => {
    const rows = caseRows(report)
    expect(filterCounts(rows)).toEqual({ all: 6, failed: 2, errored: 1, regressed: 1, disagrees: 0, flaky: 2 })
    expect(filterAndSort(rows, 'failed', 'case_id', false).map(r => `${r.case_id}#${r.repeat}`)).toEqual(['q2#1', 'q4#2'])
    expect(filterAndSort(rows, 'errored', 'case_id', false).map(r => r.case_id)).toEqual(['q3'])
  })

  it('shows each case\'s input (a promptfoo test\'s vars, not its assertions), its label, the judge\'s reason, and whether it disagrees', () => {
    const cases = [
      { id: 'q1', input: { question: 'Why?', assert: [{ type: 'contains', value: 'x' }], assert_threshold: null, cell: 1 }, expected: { verdict: 'fail' as const } },
      { id: 'q2', input: { question: 'How?' }, expected: { verdict: 'fail' as const } },
      { id: 'q3', input: { question: 'When?' }, expected: { verdict: 'pass' as const } },
    ]
    const labelled = reportOf([
      result('q1', { reason: 'It answers the question.' }),
      result('q2', { verdict: 'fail', checks: [{ name: 'contains', passed: false, score: 0, reason: 'x is missing' }] }),
      result('q3', { status: 'errored', verdict: null, error: 'provider down' }),
    ])
    const rows = caseRows(labelled, { regressions: [], score_deltas: [], changes: [{ case_id: 'q2', before: 'passed', after: 'failed', expected: 'fail', label: 'now_agrees' }] }, cases)
    expect(rows.map(r => [r.input, r.expected, r.disagrees, r.why, r.change])).toEqual([
      ['question: Why?', 'fail', true, 'It answers the question.', null],
      ['question: How?', 'fail', false, 'contains: x is missing', 'now_agrees'],
      // An errored run was not judged: it neither agrees nor disagrees.
      ['question: When?', 'pass', false, 'provider down', null],
    ])
    expect(filterAndSort(rows, 'disagrees', 'case_id', false).map(r => r.case_id)).toEqual(['q1'])
    expect(filterCounts(rows).disagrees).toBe(1)
  })

  it('puts a judge panel\'s rule before the reason, so a pass under the threshold is explained beside it', () => {
    const rule = 'passed: 2 of 3 judges passed (majority), though the mean score 0.63 is under 0.70'
    const judges = [{ model: 'openai:a', passed: true, overall_score: 0.9 }, { model: 'openai:b', passed: true, overall_score: 0.8 }, { model: 'openai:c', passed: false, overall_score: 0.2 }]
    const rows = caseRows(reportOf([
      result('p1', { score: 0.633, reason: 'The weakest criterion across the judges is accuracy (0.56), under the 0.70 threshold.', panel: { judges, agreement: 0.333, verdict_rule: rule } }),
      result('p2', { score: 0.633, panel: { judges, agreement: 0.333, verdict_rule: rule } }),
      // A report written before the rule was kept.
      result('p3', { reason: 'fine', panel: { judges, agreement: 0.333 } }),
    ]))
    expect(rows.map(r => r.why)).toEqual([
      `judge panel ${rule}. The weakest criterion across the judges is accuracy (0.56), under the 0.70 threshold.`,
      `judge panel ${rule}`,
      'fine',
    ])
  })

  it('sorts ids in natural order, numbers by value, nulls last either way, without touching the input', () => {
    const rows = caseRows(report)
    const before = rows.map(r => r.case_id)
    expect(filterAndSort(rows, 'all', 'case_id', false).map(r => r.case_id)).toEqual(['q1', 'q2', 'q3', 'q4', 'q4', 'q10'])
    expect(filterAndSort(rows, 'all', 'score', true).map(r => r.score)).toEqual([0.9, 0.7, 0.5, 0.4, 0.2, null])
    expect(filterAndSort(rows, 'all', 'score', false).map(r => r.score)).toEqual([0.2, 0.4, 0.5, 0.7, 0.9, null])
    expect(rows.map(r => r.case_id)).toEqual(before)
  })

  it('bins the scores of the succeeded runs by tenths, 1.0 in the last bin, split by verdict', () => {
    const { pass, fail } = scoreHistogram([result('a', { score: 0 }), result('b', { score: 1 }), result('c', { score: 0.55, verdict: 'fail' }), result('d', { status: 'errored', score: null })])
    expect(pass).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 1])
    expect(fail).toEqual([0, 0, 0, 0, 0, 1, 0, 0, 0, 0])
  })

  it('offers an earlier run as a baseline by its id, named by when it ran and its dataset version', () => {
    const created = Date.UTC(2026, 0, 2, 3, 4, 5)
    expect(runChoice({ id: 'run-1', created_at: created, dataset_version: 3 }))
      .toEqual({ value: 'run-1', label: `run of ${new Date(created).toLocaleString()} (v3)` })
  })
})

describe('a κ against people, as the agreement panel and a run\'s calibration show it', () => {
  it('is in the uncertain tone, with why, when its interval cannot tell; tight otherwise', () => {
    expect(kappaView({ kappa: 0.6, kappa_ci: [0, 1], labelled: 10 })).toEqual({
      text: 'κ 0.60 [0.00, 1.00]', tone: 'uncertain', uncertain: 'too few cases to tell: 10 labelled, 30 needed; the interval is 1.00 wide',
    })
    expect(kappaView({ kappa: 0.71, kappa_ci: [0.58, 0.82], labelled: 120 })).toEqual({ text: 'κ 0.71 [0.58, 0.82]', tone: 'tight', uncertain: null })
  })
})
