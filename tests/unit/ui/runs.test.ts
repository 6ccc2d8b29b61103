import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { asEvaluation, attemptTimeline, compareRuns, evaluationWarnings, runCost, usdText, comparisonView, sameValue, shortText, type RunView, type StepAttemptView, type StepView } from '../../../app/utils/runs'
import { runWorkflow, type StepRecord } from '../../../engine'
import { stepRow } from '../../../db/run-recorder'
import { presentRun } from '../../../server/utils/present'
import { gateAround, testDeps } from '../../support/workflows'

/** One attempt with presentRun's fields; null where the API sends null. */
const attempt = (n: number, status: string, fields: Partial<StepAttemptView> = {}): StepAttemptView => ({
  attempt: n, status, input: null, output: null, branch: null, error: null, reason: null,
  usage: null, cached: null, pinned: null, started_at: null, finished_at: null, duration_ms: null, ...fields,
})
/** A step as presentRun builds it: the latest attempt's fields on top, every attempt in `history`. */
function step(...history: StepAttemptView[]): StepView {
  const latest = history.at(-1)!
  return { ...latest, attempts: latest.attempt, history }
}
const judged = <T extends Record<string, unknown>>(score: number, passed: boolean, extra: T = {} as T) => ({
  passed, overall_score: score, criteria_scores: { relevance: score }, feedback: passed ? '' : 'Say why.', suggestions: [],
  grade: null, confidence: 0.8, evaluation_type: 'criteria', pass_threshold: 0.7, latency_ms: 40,
  usage: { input_tokens: 120, output_tokens: 30 }, judge: { model: 'openai:gpt-4o-mini', heuristic: false, calls: 1, cached_calls: 0, reasks: 0 },
  ...extra,
})
const llm = (text: string, extra: Record<string, unknown> = {}) => ({ text, model: 'openai:gpt-4o-mini', usage: { input_tokens: 10, output_tokens: 5 }, latency_ms: 30, cached: false, ...extra })

const gateNodes = [
  { id: 'in', type: 'input' }, { id: 'draft', type: 'llm' }, { id: 'judge', type: 'evaluator' }, { id: 'check', type: 'condition' },
  { id: 'again', type: 'retry', config: { target: 'draft', max_attempts: 3 } }, { id: 'ok', type: 'output' }, { id: 'ko', type: 'output' },
]
const gateEdges = [
  { from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }, { from: 'judge', to: 'check' },
  { from: 'check', to: 'ok', when: 'true' }, { from: 'check', to: 'again', when: 'false' }, { from: 'again', to: 'ko', when: 'exhausted' },
]

/** The quality gate failing once and passing on the second attempt. */
const retried: RunView = {
  id: 'run-a', status: 'succeeded', verdict: 'pass', duration_ms: 120,
  definition: { name: 'Quality gate', nodes: gateNodes, edges: gateEdges },
  steps: {
    // Keys in another order than the definition: the definition decides.
    ko: step(attempt(1, 'skipped', { reason: '"again" was skipped', finished_at: 1014, seq: 12 })),
    in: step(attempt(1, 'succeeded', { output: { question: 'Why?' }, started_at: 1000, duration_ms: 0.2, seq: 0 })),
    draft: step(
      attempt(1, 'succeeded', { output: llm('first'), started_at: 1001, duration_ms: 30, seq: 1 }),
      attempt(2, 'succeeded', { output: llm('second'), started_at: 1010, duration_ms: 25, seq: 6 }),
    ),
    judge: step(
      attempt(1, 'succeeded', { input: { pass_threshold: 0.7 }, output: judged(0.42, false), started_at: 1002, duration_ms: 40, seq: 2 }),
      attempt(2, 'succeeded', { input: { pass_threshold: 0.7 }, output: judged(0.86, true), started_at: 1011, duration_ms: 38, seq: 7 }),
    ),
    check: step(
      attempt(1, 'succeeded', { output: { result: false }, branch: 'false', started_at: 1003, duration_ms: 0.1, seq: 3 }),
      attempt(2, 'succeeded', { output: { result: true }, branch: 'true', started_at: 1012, duration_ms: 0.1, seq: 8 }),
    ),
    again: step(
      attempt(1, 'succeeded', { input: { target: 'draft', max_attempts: 3 }, output: { attempt: 1, exhausted: false }, started_at: 1004, duration_ms: 0.1, seq: 5 }),
      attempt(2, 'skipped', { reason: '"check" took branch "true", not "false"', finished_at: 1013, seq: 9 }),
    ),
    ok: step(
      attempt(1, 'skipped', { reason: '"check" took branch "false", not "true"', finished_at: 1004, seq: 4 }),
      attempt(2, 'succeeded', { output: { verdict: 'pass', value: 'second' }, started_at: 1013, duration_ms: 0.1, seq: 10 }),
    ),
  },
}

/** The same gate passing at once, with a node the first run does not have. */
const direct: RunView = {
  id: 'run-b', status: 'succeeded', verdict: 'pass', duration_ms: 80,
  definition: { nodes: [...gateNodes, { id: 'notify', type: 'output' }] },
  steps: {
    in: step(attempt(1, 'succeeded', { output: { question: 'Why?' } })),
    // Same text as the first run's latest draft; only timing, cache and tokens differ.
    draft: step(attempt(1, 'succeeded', { output: llm('second', { latency_ms: 3, cached: true, usage: { input_tokens: 0, output_tokens: 0 } }), duration_ms: 3 })),
    judge: step(attempt(1, 'succeeded', { output: judged(0.91, true, { latency_ms: 5 }), duration_ms: 5 })),
    check: step(attempt(1, 'succeeded', { output: { result: true }, branch: 'true' })),
    again: step(attempt(1, 'skipped', { reason: '"check" took branch "true", not "false"' })),
    ok: step(attempt(1, 'succeeded', { output: { value: 'second', verdict: 'pass' } })),
    ko: step(attempt(1, 'skipped', { reason: '"again" was skipped' })),
    notify: step(attempt(1, 'succeeded', { output: { verdict: null, value: 'sent' } })),
  },
}

describe('compareRuns', () => {
  const { rows, summary } = compareRuns(retried, direct)
  const row = (node: string) => rows.find(r => r.node === node)!

  it('has one row per node: the first run\'s definition order, then the others', () => {
    expect(rows.map(r => [r.node, r.type])).toEqual([
      ['in', 'input'], ['draft', 'llm'], ['judge', 'evaluator'], ['check', 'condition'],
      ['again', 'retry'], ['ok', 'output'], ['ko', 'output'], ['notify', 'output'],
    ])
  })

  it('puts both sides\' status, attempts and durations side by side', () => {
    expect(row('draft').a).toMatchObject({ status: 'succeeded', attempts: 2, duration_ms: 25, total_ms: 55, text: 'second', score: null })
    expect(row('draft').b).toMatchObject({ status: 'succeeded', attempts: 1, duration_ms: 3, total_ms: 3 })
    expect(row('notify').a).toEqual({ status: null, attempts: 0, duration_ms: null, total_ms: null, score: null, passed: null, grade: null, text: '', output: undefined })
    expect(row('notify')).toMatchObject({ statusChanged: true, outputChanged: true, changed: true, scoreDelta: null })
  })

  it('reads the evaluator\'s score and gives the delta b − a', () => {
    expect(row('judge').a).toMatchObject({ score: 0.86, passed: true, grade: null, text: 'passed · 0.86' })
    expect(row('judge').b.score).toBe(0.91)
    expect(row('judge').scoreDelta).toBe(0.05)
    expect(row('judge').outputChanged).toBe(true)
    expect(compareRuns(direct, retried).rows.find(r => r.node === 'judge')!.scoreDelta).toBe(-0.05)
  })

  it('does not count timing, caching or token counts as a changed output', () => {
    expect(row('draft')).toMatchObject({ statusChanged: false, outputChanged: false, changed: true })
    expect(row('ok')).toMatchObject({ outputChanged: false, changed: true })
    expect(row('in')).toMatchObject({ statusChanged: false, outputChanged: false, changed: false })
    expect(row('ko')).toMatchObject({ statusChanged: false, outputChanged: false, changed: false })
  })

  it('summarises what changed and both runs\' verdicts and durations', () => {
    expect(summary).toEqual({
      nodes: 8, changed: 6, statusChanged: 1, outputChanged: 2,
      a: { id: 'run-a', status: 'succeeded', verdict: 'pass', duration_ms: 120 },
      b: { id: 'run-b', status: 'succeeded', verdict: 'pass', duration_ms: 80 },
      verdictChanged: false, durationDelta: -40,
    })
  })

  it('flags a step that failed in one run and a verdict that flipped', () => {
    const failed: RunView = {
      ...direct, id: 'run-c', verdict: 'fail', duration_ms: null,
      steps: { ...direct.steps, judge: step(attempt(1, 'failed', { error: { code: 'PROVIDER_ERROR', message: 'rate limited' } })) },
    }
    const comparison = compareRuns(direct, failed)
    expect(comparison.rows.find(r => r.node === 'judge')).toMatchObject({ statusChanged: true, outputChanged: true, scoreDelta: null, a: { score: 0.91 }, b: { status: 'failed', score: null, text: '' } })
    expect(comparison.summary).toMatchObject({ verdictChanged: true, durationDelta: null, statusChanged: 1 })
  })

  it('orders by the steps when a run carries no definition', () => {
    const bare = { id: 'x', status: 'succeeded', steps: { b: step(attempt(1, 'succeeded')), a: step(attempt(1, 'succeeded')) } }
    expect(compareRuns(bare, { id: 'y', status: 'running' }).rows.map(r => [r.node, r.type, r.b.status])).toEqual([['b', null, null], ['a', null, null]])
  })
})

describe('shortText and sameValue', () => {
  it('summarises outputs on one line', () => {
    expect(shortText(llm('two\n  lines'))).toBe('two lines')
    expect(shortText(judged(0.42, false, { grade: 'F' }))).toBe('failed · 0.42 · grade F')
    expect(shortText(judged(0.7, true, { winner: null }))).toBe('passed · 0.70 · winner none (tie)')
    expect(shortText({ result: true })).toBe('{"result":true}')
    expect(shortText('x'.repeat(200), 10)).toBe(`${'x'.repeat(9)}…`)
    expect(shortText(null)).toBe('')
  })

  it('compares values structurally', () => {
    expect(sameValue({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true)
    expect(sameValue({ a: 1, b: undefined }, { a: 1 })).toBe(true)
    expect(sameValue(null, undefined)).toBe(true)
    expect(sameValue([1, 2], [2, 1])).toBe(false)
    expect(sameValue({ a: 1 }, { a: 1, b: 0 })).toBe(false)
    expect(sameValue({ a: [1] }, { a: { 0: 1 } })).toBe(false)
    expect(sameValue('1', 1)).toBe(false)
  })
})

describe('attemptTimeline', () => {
  const timeline = attemptTimeline(retried)
  const names = (k: number) => timeline.attempts[k - 1]!.steps.map(s => `${s.node}:${s.status}`)

  it('groups the steps by the pass through the retry loop they belong to, in the order they started', () => {
    expect(timeline.attempts.map(a => a.attempt)).toEqual([1, 2])
    expect(names(1)).toEqual(['in:succeeded', 'draft:succeeded', 'judge:succeeded', 'check:succeeded', 'ok:skipped', 'again:succeeded'])
    // ko is reached for the first time in the second pass, when the retry is skipped: its own attempt 1 belongs there.
    expect(names(2)).toEqual(['draft:succeeded', 'judge:succeeded', 'check:succeeded', 'again:skipped', 'ok:succeeded', 'ko:skipped'])
  })

  it('keeps each step\'s own attempt number when the run does not say the order its steps were stored in', () => {
    const unordered: RunView = { ...retried, steps: Object.fromEntries(Object.entries(retried.steps!).map(([id, s]) => {
      const history = s.history.map(({ seq: _seq, ...entry }) => entry)
      return [id, { ...s, history }]
    })) }
    expect(attemptTimeline(unordered).attempts[0]!.steps.map(s => s.node)).toContain('ko')
  })

  it('gives each step its duration, the reason it was skipped and what a retry did', () => {
    const again1 = timeline.attempts[0]!.steps.find(s => s.node === 'again')!
    expect(again1).toEqual({ node: 'again', type: 'retry', status: 'succeeded', duration_ms: 0.1, reason: null, retry: { target: 'draft', exhausted: false }, evaluation: null })
    expect(timeline.attempts[1]!.steps.find(s => s.node === 'again')).toMatchObject({ reason: '"check" took branch "true", not "false"', retry: null })
  })

  it('reads the retry reason when the step carries it', () => {
    const withReason: RunView = { id: 'r', status: 'succeeded', steps: { again: step(attempt(1, 'succeeded', { rerun: { target: 'draft', reason: 'judge said no' }, input: { target: 'draft' }, output: { attempt: 1, exhausted: false } })) } }
    expect(attemptTimeline(withReason).attempts[0]!.steps[0]).toMatchObject({ type: null, reason: 'judge said no', retry: { target: 'draft', exhausted: false } })
  })

  it('gives each evaluator\'s score, verdict and threshold per attempt', () => {
    expect(timeline.attempts.map(a => a.steps.find(s => s.node === 'judge')!.evaluation)).toEqual([
      { score: 0.42, passed: false, threshold: 0.7 }, { score: 0.86, passed: true, threshold: 0.7 },
    ])
    expect(timeline.series).toEqual([{ node: 'judge', points: [
      { attempt: 1, score: 0.42, passed: false, threshold: 0.7 }, { attempt: 2, score: 0.86, passed: true, threshold: 0.7 },
    ] }])
  })

  it('leaves a failed evaluator attempt out of its series', () => {
    const run: RunView = { id: 'r', status: 'failed', steps: { judge: step(
      attempt(1, 'succeeded', { output: judged(0.5, false, { pass_threshold: 0.8 }) }),
      attempt(2, 'failed', { error: { message: 'timeout' } }),
    ) } }
    const { attempts, series } = attemptTimeline(run)
    expect(attempts.map(a => a.steps.map(s => s.status))).toEqual([['succeeded'], ['failed']])
    expect(series).toEqual([{ node: 'judge', points: [{ attempt: 1, score: 0.5, passed: false, threshold: 0.8 }] }])
  })

  it('is empty for a run without steps', () => {
    expect(attemptTimeline({ id: 'q', status: 'queued' })).toEqual({ attempts: [], series: [] })
  })
})

const abInput = {
  evaluation_type: 'comparison', model: 'local:heuristic', pass_threshold: 0.5,
  criteria: [{ name: 'relevance', weight: 0.5 }, { name: 'helpfulness', weight: 0.5 }],
  context: 'How do I reset my password?',
  compare_inputs: ['Check the docs.', '1. Open Settings. 2. Choose "Forgot password".'],
}
const abOutput = judged(0.82, true, {
  evaluation_type: 'comparison', pass_threshold: 0.5,
  criteria_scores: { helpfulness: 0.84, relevance: 0.8 },
  criteria_reasons: { a: 'too short', b: 'gives the steps' },
  ranking: [
    { id: 'b', rank: 1, overall_score: 0.82, criteria_scores: { helpfulness: 0.84, relevance: 0.8 }, scores_by_order: [0.8, 0.84] },
    { id: 'a', rank: 2, overall_score: 0.48, criteria_scores: { helpfulness: 0.4, relevance: 0.56 }, scores_by_order: [0.5, 0.46] },
  ],
  winner: 'b', best_output: '1. Open Settings. 2. Choose "Forgot password".', position_consistency: 1,
})

describe('comparisonView', () => {
  it('puts the candidates side by side by rank, with their texts from the step input', () => {
    const view = comparisonView(abOutput, abInput)!
    expect(view.criteria).toEqual(['relevance', 'helpfulness'])
    expect(view).toMatchObject({ winner: 'b', position_consistency: 1, context: 'How do I reset my password?', passed: true, pass_threshold: 0.5 })
    expect(view.candidates).toEqual([
      { id: 'b', rank: 1, overall_score: 0.82, criteria_scores: { helpfulness: 0.84, relevance: 0.8 }, scores_by_order: [0.8, 0.84], given: 0.8, reversed: 0.84, text: abInput.compare_inputs[1], reason: 'gives the steps', winner: true },
      { id: 'a', rank: 2, overall_score: 0.48, criteria_scores: { helpfulness: 0.4, relevance: 0.56 }, scores_by_order: [0.5, 0.46], given: 0.5, reversed: 0.46, text: 'Check the docs.', reason: 'too short', winner: false },
    ])
  })

  it('marks no winner on a tie and keeps tied candidates in the engine\'s order', () => {
    const tie = { ...abOutput, winner: null, ranking: [{ ...abOutput.ranking[0], rank: 1 }, { ...abOutput.ranking[1], rank: 1 }] }
    const view = comparisonView(tie, abInput)!
    expect(view.winner).toBeNull()
    expect(view.candidates.map(c => [c.id, c.rank, c.winner])).toEqual([['b', 1, false], ['a', 1, false]])
  })

  it('averages the scores of each order over samples (given, reversed, given, reversed)', () => {
    const sampled = { ...abOutput, ranking: [{ ...abOutput.ranking[0], scores_by_order: [0.8, 0.7, 0.6, 0.5] }, abOutput.ranking[1]] }
    expect(comparisonView(sampled, abInput)!.candidates[0]).toMatchObject({ given: 0.7, reversed: 0.6 })
  })

  it('takes explicit candidate ids and texts from `candidates`', () => {
    const input = { candidates: [{ id: 'short', text: 'Check the docs.' }, { id: 'steps', text: 'Open Settings.' }] }
    const output = { ...abOutput, criteria_reasons: {}, best_output: 'Open Settings.', ranking: [{ ...abOutput.ranking[0], id: 'steps' }, { ...abOutput.ranking[1], id: 'short' }] }
    expect(comparisonView(output, input)!.candidates.map(c => [c.id, c.text, c.reason])).toEqual([['steps', 'Open Settings.', null], ['short', 'Check the docs.', null]])
  })

  it('shows only the best output when the ids cannot be matched to the input', () => {
    const output = { ...abOutput, criteria_reasons: undefined }
    expect(comparisonView(output, abInput)!.candidates.map(c => [c.id, c.text])).toEqual([['b', abOutput.best_output], ['a', null]])
    expect(comparisonView(abOutput, undefined)!.candidates.map(c => c.text)).toEqual([abOutput.best_output, null])
  })

  it('is null for anything but a comparison result', () => {
    expect(comparisonView(judged(0.9, true), abInput)).toBeNull()
    expect(comparisonView({ text: 'hi' }, abInput)).toBeNull()
    expect(comparisonView(null, null)).toBeNull()
  })
})

/** Runs a workflow in the engine and presents it as GET /api/runs/:id does, through JSON. */
async function presented(workflow: Record<string, unknown>, input: Record<string, unknown>): Promise<RunView> {
  const { options, events } = testDeps()
  const result = await runWorkflow(workflow, { ...options, input })
  // As the store keeps them: a row written when its step starts (or is skipped), updated in place when it ends.
  const byKey = new Map<string, StepRecord>()
  for (const e of events) {
    const record: StepRecord | undefined = 'step' in e ? e.step : e.type === 'step.started' ? { node_id: e.node_id, attempt: e.attempt, status: 'running' as StepRecord['status'], started_at: e.at } : undefined
    if (record) byKey.set(`${record.node_id}#${record.attempt}`, record)
  }
  const rows = [...byKey.values()].map((record, i) => ({ id: i + 1, ...stepRow('run-1', record) }))
  const run = {
    id: 'run-1', workflowId: null, workflowVersion: null, definition: workflow, input, options: {}, status: result.status, verdict: result.verdict,
    output: result.output, error: result.error, leaseOwner: null, resumesWithoutProgress: 0, lastStepAtResume: null,
    createdAt: 0, startedAt: 0, finishedAt: 1, durationMs: result.duration_ms,
  }
  const view: RunView = JSON.parse(JSON.stringify(presentRun(run, rows)))
  return view
}

describe('the views of runs made by the engine', () => {
  it('names the A/B template\'s candidates after their steps and shows their texts', async () => {
    const workflow = JSON.parse(readFileSync(new URL('../../../examples/ab-test.json', import.meta.url), 'utf8'))
    const run = await presented(workflow, { question: 'How do I reset my password?' })
    const judge = run.steps!.judge!
    const view = comparisonView(judge.output, judge.input)!
    const byId = Object.fromEntries(view.candidates.map(c => [c.id, c.text]))
    expect(byId).toEqual({ a: 'Check the docs.', b: workflow.nodes[2].pinned[0] })
    expect(view.candidates[0]!.text).toBe((judge.output as { best_output: string }).best_output)
    expect(view.criteria).toEqual(['relevance', 'helpfulness'])
    expect(view.context).toBe('How do I reset my password?')
    expect(view.candidates.every(c => c.scores_by_order.length === 2 && c.given !== null && c.reversed !== null)).toBe(true)
    expect(compareRuns(run, run).summary).toMatchObject({ nodes: 5, changed: 0, statusChanged: 0, outputChanged: 0, verdictChanged: false, durationDelta: 0 })
  })

  it('draws the evaluator\'s score per attempt of a retried gate', async () => {
    const evaluation = (score: number) => judged(score, score >= 0.7)
    const workflow = gateAround('gate', [
      { id: 'in', type: 'input' },
      { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: '{{input.question}}' }, pinned: ['one', 'two', 'three'] },
      { id: 'judge', type: 'evaluator', config: { evaluation_type: 'scoring', pass_threshold: 0.7, content: '{{steps.draft.text}}' }, pinned: [evaluation(0.42), evaluation(0.55), evaluation(0.86)] },
    ])
    const run = await presented(workflow, { question: 'Why?' })
    const { attempts, series } = attemptTimeline(run)
    expect(attempts.map(a => a.attempt)).toEqual([1, 2, 3])
    expect(series).toEqual([{ node: 'judge', points: [
      { attempt: 1, score: 0.42, passed: false, threshold: 0.7 },
      { attempt: 2, score: 0.55, passed: false, threshold: 0.7 },
      { attempt: 3, score: 0.86, passed: true, threshold: 0.7 },
    ] }])
    expect(attempts.map(a => a.steps.find(s => s.node === 'again')?.retry ?? null)).toEqual([
      { target: 'draft', exhausted: false }, { target: 'draft', exhausted: false }, null,
    ])
    expect(attempts[2]!.steps.find(s => s.node === 'ok')!.status).toBe('succeeded')
    // The fail output is reached only in the last pass, where the retry is not: skipped there, not in the passes that retried.
    expect(attempts.map(a => a.steps.filter(s => s.node === 'ko').map(s => s.reason))).toEqual([[], [], ['"again" was skipped']])
  })
})

describe('what a run cost', () => {
  const step = (history: unknown[]): StepView => ({ attempt: history.length, status: 'succeeded', attempts: history.length, history: history.map((output, i) => ({ attempt: i + 1, status: 'succeeded', output })) as StepAttemptView[] })
  it('sums every attempt of every step that made a call, null when one cost is not known', () => {
    const run: RunView = { id: 'r', status: 'succeeded', steps: { draft: step([{ text: 'a', cost_usd: 0.001 }, { text: 'b', cost_usd: 0.002 }]), judge: step([{ overall_score: 1, cost_usd: 0.0005 }]), in: step([{ question: 'q' }]) } }
    expect(runCost(run)).toBe(0.0035)
    expect(runCost({ ...run, steps: { ...run.steps, judge: step([{ overall_score: 1, cost_usd: null }]) } })).toBeNull()
    expect(runCost({ id: 'r', status: 'succeeded', steps: { in: step([{ question: 'q' }]) } })).toBeUndefined()
    expect([usdText(0), usdText(0.0035), usdText(1.254)]).toEqual(['$0', '$0.0035', '$1.25'])
  })
})

describe('the note on an evaluator step\'s result card (EvaluatorResultCard)', () => {
  const gate = (model?: string) => ({
    name: 'gate',
    nodes: [
      { id: 'in', type: 'input', config: {} },
      { id: 'judge', type: 'evaluator', config: { evaluation_type: 'scoring', ...(model ? { model } : {}), content: '{{input.answer}}' } },
    ],
    edges: [{ from: 'in', to: 'judge' }],
  })

  it('says, from the run as the API presents it, that local:heuristic graded because no judge key was set', async () => {
    const run = await presented(gate(), { answer: 'Paris is the capital of France.' })
    const result = asEvaluation(run.steps!.judge!.output)!
    expect(evaluationWarnings(result)).toEqual([expect.stringMatching(/^No judge model was named and neither OPENAI_API_KEY nor ANTHROPIC_API_KEY is set, so the offline local:heuristic judge graded this/)])
  })

  it('says nothing when the offline judge was chosen, nor for a result from before warnings', async () => {
    const run = await presented(gate('local:heuristic'), { answer: 'Paris is the capital of France.' })
    expect(evaluationWarnings(asEvaluation(run.steps!.judge!.output)!)).toEqual([])
    expect(evaluationWarnings({})).toEqual([])
    expect(evaluationWarnings({ warnings: ['', 3, 'kept'] })).toEqual(['kept'])
  })

  it('is shown on the card, beside the verdict', () => {
    const card = readFileSync(new URL('../../../components/runs/EvaluatorResultCard.vue', import.meta.url), 'utf8')
    expect(card).toContain('const warnings = computed(() => evaluationWarnings(props.result))')
    expect(card).toMatch(/v-for="w in warnings"[^>]*role="note"\s+data-testid="evaluator-warning"/)
  })
})
