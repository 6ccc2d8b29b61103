import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, waitFor, type AppServer } from '../support/app-server'
import { runEndedOn } from '../support/runs'

const distinctNumbers = (count: number, offset: number) => Array.from({ length: count }, (_, i) => String(i * 7 + offset)).join(' ')

/** 20,000 distinct numbers in the content and in the reference: a 229 KB accuracy check. */
const numbersBody = {
  config: { evaluation_type: 'criteria', model: 'local:heuristic', criteria: [{ name: 'accuracy' }] },
  input: { content: distinctNumbers(20_000, 1), reference: distinctNumbers(20_000, 3) },
}

/** 50 criteria judged 10 times each over a long answer and reference. */
const sentence = (i: number) => `Step ${i}: open Settings, choose "Forgot password" and follow link ${i * 13} within ${i % 60} minutes. `
const longText = (from: number) => Array.from({ length: 1_500 }, (_, i) => `${sentence(from + i)}${i % 10 === 9 ? '\n' : ''}`).join('')
const criteriaBody = {
  config: {
    evaluation_type: 'criteria', model: 'local:heuristic', samples: 10,
    criteria: Array.from({ length: 50 }, (_, i) => ({ name: `criterion_${i}`, description: `covers step ${i} of the password reset` })),
  },
  input: { context: 'How do I reset my password?', content: longText(0), reference: longText(7) },
}

/** Health while heavy evaluations are in flight: every answer arrives, each within a second (the promise is 200 ms). */
async function pollHealth(server: AppServer, busy: () => boolean): Promise<number[]> {
  const waits: number[] = []
  do {
    const sent = performance.now()
    const { status } = await server.api('/api/health')
    expect(status).toBe(200)
    waits.push(performance.now() - sent)
    await new Promise(r => setTimeout(r, 50))
  } while (busy())
  return waits
}

describe('offline evaluations on worker threads', () => {
  let server: AppServer
  beforeAll(async () => {
    const folder = mkdtempSync(join(tmpdir(), 'judgeflow-custom-'))
    const scorers = join(folder, 'scorers')
    const metrics = join(folder, 'metrics')
    for (const dir of [scorers, metrics]) mkdirSync(dir)
    writeFileSync(join(scorers, 'word-count.mjs'), `import { threadId } from 'node:worker_threads'
export default { type: 'word-count', score: actual => Math.min(1, String(actual).split(/\\s+/).length / 10), details: () => ({ thread: threadId }) }\n`)
    writeFileSync(join(metrics, 'thread.mjs'), `import { threadId } from 'node:worker_threads'
export default { name: 'Thread', description: 'where it ran', score: () => ({ score: 50, evaluator_comment: 'thread ' + threadId }) }\n`)
    // The time limit is not what these tests are about: generous, so a slow machine cannot trip it.
    server = await startAppServer({ env: { JUDGEFLOW_SCORERS_DIR: scorers, JUDGEFLOW_METRICS_DIR: metrics, JUDGEFLOW_EVAL_TIME_LIMIT_MS: '120000' } })
  })
  afterAll(() => server?.stop())

  it('keep the server answering while a 229 KB accuracy check and a 50 criteria × 10 samples evaluation run', async () => {
    let inFlight = 2
    const evaluation = (body: unknown) => server.api('/api/evaluate', { body }).finally(() => inFlight--)
    const evaluations = Promise.all([evaluation(numbersBody), evaluation(criteriaBody)])
    const waits = await pollHealth(server, () => inFlight > 0)
    const [numbers, criteria] = await evaluations
    expect(numbers.status).toBe(200)
    expect(numbers.body.criteria_reasons.accuracy).toContain('the reference\'s numbers 3, 10, 17, 24, 31 are missing')
    expect(criteria.status).toBe(200)
    expect(Object.keys(criteria.body.criteria_scores)).toHaveLength(50)
    expect(criteria.body.samples.overall_scores).toHaveLength(10)
    expect(waits.length).toBeGreaterThan(0)
    for (const wait of waits) expect(wait).toBeLessThan(1_000)
  })

  it('run custom scorers and code metrics from their folders on a worker', async () => {
    const scored = await server.api('/api/evaluate', { body: { config: { evaluation_type: 'scorers', scorers: [{ type: 'word-count' }] }, input: { actual: 'one two three four five' } } })
    expect(scored.status).toBe(200)
    expect(scored.body.scorer_results[0]).toMatchObject({ type: 'word-count', score: 0.5 })
    expect(scored.body.scorer_results[0].details.thread).toBeGreaterThan(0)
    const metric = await server.api('/api/evaluate', { body: { config: { evaluation_type: 'metrics', metrics: [{ name: 'Thread', weight: 1 }] }, input: { submission: 'an answer' } } })
    expect(metric.status).toBe(200)
    expect(metric.body.metrics[0].evaluator_comment).toMatch(/^thread [1-9]/)
  })

  it('share one trace cache: a trace scored again is no longer novel, whichever worker scores it', async () => {
    const trace = { metadata: { task_domain: 'code', success: true }, task: { objective: 'Fix the flaky worker test' }, steps: [{ type: 'thought', content: 'Read the log' }, { type: 'tool_call', tool: { name: 'grep' }, content: 'grep error' }], outcome: { confidence: 0.9 } }
    const novelty = async () => (await server.api('/api/evaluate', { body: { config: { evaluation_type: 'trace', trace: { embedder: 'hashed' } }, input: { trace } } })).body.trace.N
    const [first, second] = await Promise.all([novelty(), novelty()])
    expect([first, second].sort()).toEqual([0, 0.5])
    expect(await novelty()).toBe(0)
  })
})

describe('the evaluation time limit', () => {
  let server: AppServer
  beforeAll(async () => {
    server = await startAppServer({ env: { JUDGEFLOW_EVAL_TIME_LIMIT_MS: '1' } })
  })
  afterAll(() => server?.stop())

  it('stops an evaluation that runs past JUDGEFLOW_EVAL_TIME_LIMIT_MS with an error naming it, and the next one gets a new worker', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const { status, body } = await server.api('/api/evaluate', { body: numbersBody })
      expect(status).toBe(400)
      expect(body.message).toBe('The evaluation did not finish within the time limit of 1 ms and was stopped: evaluate shorter texts, fewer criteria or a smaller input, or raise JUDGEFLOW_EVAL_TIME_LIMIT_MS.')
      expect(body.data).toMatchObject({ code: 'EVALUATION_TIME_LIMIT', details: { variable: 'JUDGEFLOW_EVAL_TIME_LIMIT_MS', limit_ms: 1 } })
    }
    expect((await server.api('/api/health')).status).toBe(200)
  })

  it('fails an evaluator step of a run with the same error', async () => {
    const workflow = {
      name: 'numbers gate',
      nodes: [
        { id: 'in', type: 'input', config: {} },
        { id: 'judge', type: 'evaluator', config: { evaluation_type: 'criteria', model: 'local:heuristic', criteria: [{ name: 'accuracy' }], content: '{{input.content}}', reference: '{{input.reference}}' } },
      ],
      edges: [{ from: 'in', to: 'judge' }],
    }
    const created = await server.api('/api/workflows', { body: workflow })
    expect(created.status).toBe(201)
    const started = await server.api(`/api/workflows/${created.body.id}/runs`, { body: { input: numbersBody.input } })
    expect(started.status).toBe(202)
    const run = await runEndedOn(server, started.body.id, 20_000)
    expect(run.status).toBe('failed')
    expect(JSON.stringify(run)).toContain('raise JUDGEFLOW_EVAL_TIME_LIMIT_MS')
  })
})

describe('the evaluation queue of POST /api/evaluate', () => {
  let server: AppServer
  let started: string
  const spin = { config: { evaluation_type: 'scorers', scorers: [{ type: 'spin' }] }, input: { actual: 'spin' } }
  const ordinary = { config: { evaluation_type: 'scorers', scorers: [{ type: 'spin' }] }, input: { actual: 'fine' } }
  beforeAll(async () => {
    // A custom scorer that never returns on "spin", saying when it has begun; anything else scores 1.
    const scorers = mkdtempSync(join(tmpdir(), 'judgeflow-scorers-'))
    started = join(scorers, 'spinning')
    writeFileSync(join(scorers, 'spin.mjs'), `import { writeFileSync } from 'node:fs'
export default { type: 'spin', score(actual) { if (actual === 'spin') { writeFileSync(${JSON.stringify(started)}, ''); for (;;) {} } return 1 } }\n`)
    server = await startAppServer({ env: { JUDGEFLOW_SCORERS_DIR: scorers, JUDGEFLOW_EVAL_WORKERS: '1', JUDGEFLOW_EVAL_TIME_LIMIT_MS: '6000', JUDGEFLOW_MAX_QUEUED_EVALUATIONS: '2' } })
  })
  afterAll(() => server?.stop())

  it('refuses with 429 and Retry-After an evaluation beyond JUDGEFLOW_MAX_QUEUED_EVALUATIONS waiting; the waiting ones and the steps of runs still run', async () => {
    const running = server.api('/api/evaluate', { body: spin })
    await waitFor(() => existsSync(started), 10_000, 'the first evaluation to run')
    // The worker is busy: of three more, two wait and one is refused at once.
    const answered: number[] = []
    const more = [1, 2, 3].map(() => server.api('/api/evaluate', { body: spin }).then((answer) => { answered.push(answer.status); return answer }))
    await waitFor(() => answered.length > 0, 3_000, 'a refusal')
    expect(answered).toEqual([429])

    const refused = await server.api('/api/evaluate', { body: ordinary })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('6')
    expect(refused.body.message).toBe('2 evaluations are already waiting for an evaluation worker, the most JUDGEFLOW_MAX_QUEUED_EVALUATIONS allows (2): try again in 6 s, or raise JUDGEFLOW_MAX_QUEUED_EVALUATIONS.')
    expect(refused.body.data).toEqual({ code: 'TOO_MANY_EVALUATIONS', details: { variable: 'JUDGEFLOW_MAX_QUEUED_EVALUATIONS', limit: 2, retry_after_s: 6 } })

    // A run's evaluator step is not refused: it waits its turn.
    const workflow = {
      name: 'queued step',
      nodes: [{ id: 'in', type: 'input', config: {} }, { id: 'judge', type: 'evaluator', config: { ...ordinary.config, actual: '{{input.text}}' } }],
      edges: [{ from: 'in', to: 'judge' }],
    }
    const { body: wf } = await server.api('/api/workflows', { body: workflow })
    const run = await server.api(`/api/workflows/${wf.id}/runs`, { body: { input: { text: 'fine' } } })
    expect(run.status).toBe(202)

    expect((await running).body.data.code).toBe('EVALUATION_TIME_LIMIT')
    expect((await Promise.all(more)).map(answer => answer.body.data.code).sort()).toEqual(['EVALUATION_TIME_LIMIT', 'EVALUATION_TIME_LIMIT', 'TOO_MANY_EVALUATIONS'])
    expect((await runEndedOn(server, run.body.id, 30_000)).status).toBe('succeeded')
    expect((await server.api('/api/evaluate', { body: ordinary })).status).toBe(200)
  }, 60_000)
})
