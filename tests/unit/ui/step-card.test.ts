import { describe, expect, it } from 'vitest'
import { cardAccessibleName, cardHeading, carriedEdges, copyName, formatDuration, runBadges, startingName, stepSummary } from '../../../app/utils/step-card'
import type { StepView } from '../../../app/utils/runs'

describe('a new step\'s name', () => {
  it('says what the step does, numbered when the name is taken', () => {
    expect(startingName('llm', [])).toBe('Generate')
    expect(startingName('http', [])).toBe('Call API')
    expect(startingName('code', [])).toBe('Call function')
    expect(startingName('evaluator', ['Input', undefined])).toBe('Judge')
    expect(startingName('evaluator', ['Judge', 'Judge 2'])).toBe('Judge 3')
    expect(startingName('webhook', [])).toBe('webhook')
  })
  it('a copy keeps its original\'s name where it is free, else is numbered on from it', () => {
    expect(copyName('Judge', ['Input'])).toBe('Judge')
    expect(copyName('Judge', ['Judge'])).toBe('Judge 2')
    expect(copyName('Judge', ['Judge', 'Judge 2'])).toBe('Judge 3')
    expect(copyName('Judge 2', ['Judge', 'Judge 2'])).toBe('Judge 3')
    expect(copyName('GPT 4', ['GPT 4'])).toBe('GPT 5')
  })
})

describe('a step card\'s title lines, whole', () => {
  it('on hover: the name, then the type and id; the id alone when unnamed', () => {
    expect(cardHeading({ id: 'draft', label: 'LLM', name: 'Draft the answer' })).toBe('Draft the answer\nLLM · draft')
    expect(cardHeading({ id: 'judge', label: 'Evaluator' })).toBe('judge\nEvaluator')
  })
  it('for screen readers: the type, name and id once, and how its run went', () => {
    expect(cardAccessibleName({ id: 'draft', label: 'LLM', name: 'Draft the answer' })).toBe('LLM step Draft the answer (draft)')
    expect(cardAccessibleName({ id: 'judge', label: 'Evaluator' }, 'succeeded')).toBe('Evaluator step judge, succeeded')
  })
})

describe('a step card\'s line of what the step does', () => {
  it('names the model, the evaluation type and threshold, the condition, the loop, the verdict', () => {
    expect(stepSummary({ id: 'in', type: 'input', config: { fields: { question: {}, context: {} } } })).toBe('fields: question, context')
    expect(stepSummary({ id: 'in', type: 'input', config: {} })).toBe('the run input')
    expect(stepSummary({ id: 'd', type: 'llm', config: { model: 'openai:gpt-4o-mini' } })).toBe('openai:gpt-4o-mini')
    expect(stepSummary({ id: 'd', type: 'llm', config: {} })).toBe('no model set')
    expect(stepSummary({ id: 'api', type: 'http', config: { url: 'https://api.example.com/v1/chat?key=sk-1' } })).toBe('POST api.example.com/v1/chat')
    expect(stepSummary({ id: 'api', type: 'http', config: { url: '{{input.base}}/health', method: 'get' } })).toBe('GET {{input.base}}/health')
    expect(stepSummary({ id: 'api', type: 'http', config: {} })).toBe('no URL set')
    expect(stepSummary({ id: 'code', type: 'code', config: { module: 'product.ts' } })).toBe('product.ts')
    expect(stepSummary({ id: 'code', type: 'code', config: { python: 'lib/product.py' } })).toBe('python: lib/product.py')
    expect(stepSummary({ id: 'code', type: 'code', config: {} })).toBe('no file set')
    expect(stepSummary({ id: 'j', type: 'evaluator', config: { evaluation_type: 'criteria', pass_threshold: 0.8 } })).toBe('criteria · pass ≥ 0.8')
    expect(stepSummary({ id: 'j', type: 'evaluator', config: { evaluation_type: 'scoring' } })).toBe('scoring')
    expect(stepSummary({ id: 'c', type: 'condition', config: { left: '{{steps.judge.passed}}', op: 'eq', right: true } })).toBe('judge.passed = true')
    expect(stepSummary({ id: 'c', type: 'condition', config: { left: '{{input.text}}', op: 'contains', right: 'refund' } })).toBe('input.text contains "refund"')
    expect(stepSummary({ id: 'c', type: 'condition', config: { left: '{{steps.a.text}}', op: 'truthy' } })).toBe('a.text is truthy')
    expect(stepSummary({ id: 'c', type: 'condition', config: {} })).toBe('no condition set')
    expect(stepSummary({ id: 'r', type: 'retry', config: { target: 'draft', max_attempts: 3 } })).toBe('retry → draft · ≤ 3 runs')
    expect(stepSummary({ id: 'r', type: 'retry', config: { target: 'draft', max_attempts: 3 } }, id => (id === 'draft' ? 'Draft' : undefined))).toBe('retry → Draft · ≤ 3 runs')
    expect(stepSummary({ id: 'o', type: 'output', config: { verdict: 'fail' } })).toBe('verdict fail')
    expect(stepSummary({ id: 'o', type: 'output', config: { value: '{{steps.draft.text}}' } })).toBe('draft.text')
    expect(stepSummary({ id: 'o', type: 'output', config: { value: { winner: '{{steps.judge.winner}}', text: 'x' } } })).toBe('{ winner, text }')
  })
})

const attempt = (n: number, status: string, extra: Partial<StepView> = {}) => ({ attempt: n, status, ...extra })
const step = (history: Array<ReturnType<typeof attempt>>): StepView => ({ ...history.at(-1)!, attempts: history.length, history })

describe('a run on the canvas', () => {
  // The quality gate: the first answer fails, the retry sends the run back, the second passes.
  const steps: Record<string, StepView> = {
    in: step([attempt(1, 'succeeded', { duration_ms: 2 })]),
    draft: step([attempt(1, 'succeeded', { pinned: true }), attempt(2, 'succeeded', { pinned: true, duration_ms: 1 })]),
    judge: step([attempt(1, 'succeeded', { output: { passed: false, overall_score: 0.3, criteria_scores: {} } }),
      attempt(2, 'succeeded', { output: { passed: true, overall_score: 0.93, criteria_scores: {} }, duration_ms: 8 })]),
    check: step([attempt(1, 'succeeded', { branch: 'false' }), attempt(2, 'succeeded', { branch: 'true' })]),
    again: step([attempt(1, 'succeeded', { rerun: { target: 'draft', reason: 'low' }, output: { attempt: 1, exhausted: false } }), attempt(2, 'skipped')]),
    ok: step([attempt(1, 'succeeded')]),
    ko: step([attempt(1, 'skipped')]),
  }
  const nodes = ['in', 'draft', 'judge', 'check', 'again', 'ok', 'ko'].map(id => ({ id, type: id === 'again' ? 'retry' : 'llm', config: {} }))
  const edges = [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }, { from: 'judge', to: 'check' },
    { from: 'check', to: 'ok', when: 'true' }, { from: 'check', to: 'again', when: 'false' }, { from: 'again', to: 'ko', when: 'exhausted' }]

  it('marks the edges that carried data with their branch, and the retry loop that was taken', () => {
    expect(carriedEdges(edges, nodes, steps)).toEqual({
      'in->draft:': 'out', 'draft->judge:': 'out', 'judge->check:': 'out',
      'check->ok:true': 'true', 'check->again:false': 'false', 'loop:again': 'loop',
    })
    expect(carriedEdges(edges, nodes, undefined)).toEqual({})
  })

  it('gives each step its latest status, attempts, time, and an evaluator its score and verdict', () => {
    const badges = runBadges({ in: { status: 'running', attempt: 1 } }, steps)
    expect(badges.judge).toMatchObject({ status: 'succeeded', word: 'succeeded', attempt: 2, duration_ms: 8, score: 0.93, passed: true, pinned: false })
    expect(badges.draft).toMatchObject({ attempt: 2, pinned: true, score: null })
    expect(badges.draft!.attempts.map(a => a.kind)).toEqual(['ran', 'ran'])
    expect(badges.in!.attempts).toEqual([])
    // While a run is followed live, its statuses alone.
    expect(runBadges({ in: { status: 'succeeded', attempt: 1, duration_ms: 3 } }, undefined).in)
      .toEqual({ status: 'succeeded', word: 'succeeded', attempt: 1, duration_ms: 3, score: null, passed: null, pinned: false, attempts: [], value: null })
  })

  it('gives an output step\'s value on one line and whole, and none to other steps or one not reached', () => {
    const long = `To reset your password: ${'open Settings, '.repeat(6)}done.`
    const output = step([attempt(1, 'succeeded', { output: { verdict: 'pass', value: long } })])
    const object = step([attempt(1, 'succeeded', { output: { value: { winner: 'b' } } })])
    const badges = runBadges({}, { ...steps, ok: output, best: object })
    expect(badges.ok!.value).toEqual({ line: `${long.slice(0, 59)}…`, whole: long })
    expect(badges.best!.value).toEqual({ line: '{"winner":"b"}', whole: '{\n  "winner": "b"\n}' })
    expect(badges.judge!.value).toBeNull()
    expect(badges.ko!.value).toBeNull()
  })

  it('shows a step skipped after it ran as what it did when it ran, with each attempt', () => {
    const badges = runBadges({}, steps)
    expect(badges.again).toMatchObject({ status: 'succeeded', word: 'retried', attempt: 1 })
    expect(badges.again!.attempts).toEqual([
      { attempt: 1, kind: 'ran', status: 'succeeded', title: 'Attempt 1: retried, ran draft again' },
      { attempt: 2, kind: 'skipped', status: 'skipped', title: 'Attempt 2: not reached' },
    ])
    const exhausted = step([attempt(1, 'succeeded', { output: { exhausted: false }, rerun: { target: 'draft', reason: 'low' } }), attempt(2, 'succeeded', { output: { exhausted: true } })])
    expect(runBadges({}, { again: exhausted }).again).toMatchObject({ status: 'succeeded', word: 'exhausted', attempt: 2 })
    // A step no attempt reached stays skipped.
    expect(runBadges({}, steps).ko).toMatchObject({ status: 'skipped', word: 'skipped', attempts: [] })
  })

  it('says a duration in ms below a second, else in seconds', () => {
    expect(formatDuration(null)).toBe('')
    expect(formatDuration(0.4)).toBe('<1 ms')
    expect(formatDuration(7.6)).toBe('8 ms')
    expect(formatDuration(1234)).toBe('1.2 s')
    expect(formatDuration(12_345)).toBe('12 s')
  })
})
