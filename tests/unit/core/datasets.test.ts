import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createJudgeflow, loadConfig, type Judgeflow } from '../../../core'
import type { DatasetRunProgress } from '../../../core/datasets'
import type { DatasetReport } from '../../../engine/datasets'
import { FakeLLM } from '../../support/fake-llm'
import { storeFactories, stopStores, type StoreFactory } from '../../support/stores'

const fake = new FakeLLM()
beforeAll(async () => {
  await fake.start()
})
afterAll(async () => {
  await fake.stop()
  await stopStores()
})

let app: Judgeflow | undefined
afterEach(async () => {
  await app?.close(0)
  app = undefined
  fake.reset()
})

/** An answer, then a criteria judge on the LLM: the fake scores an answer holding "good" 0.9, else 0.2. */
const gate = {
  name: 'Support answers',
  nodes: [
    { id: 'in', type: 'input', config: { fields: { question: { type: 'string', required: true } } } },
    { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Answer {{input.question}}' } },
    { id: 'judge', type: 'evaluator', config: { evaluation_type: 'criteria', model: 'openai:gpt-4o-mini', pass_threshold: 0.7, criteria: [{ name: 'helpful', description: 'Helps', weight: 1 }] } },
  ],
  edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }],
}

function scripted(options: { limitFirst?: number, downFor?: string } = {}) {
  let limited = 0
  fake.onRequest((request) => {
    const body = JSON.stringify(request.body)
    if (options.limitFirst && limited < options.limitFirst) {
      limited++
      return { status: 429, headers: { 'retry-after-ms': '30' }, json: { error: { message: 'Rate limit reached' } } }
    }
    if (request.body.response_format) {
      const good = body.includes('good answer')
      return { json: { criteria_scores: { helpful: good ? 0.9 : 0.2 }, feedback: good ? 'Helpful.' : 'Not helpful.', suggestions: [] } }
    }
    if (options.downFor && body.includes(options.downFor)) return { status: 500, json: { error: { message: 'upstream down' } } }
    return { text: body.includes('refund') ? 'a good answer about refunds' : 'a vague reply' }
  })
}

let stores: StoreFactory

/** An app on a new store, or on the store at `location` (a restart). */
async function makeApp(location?: string, env: Record<string, string> = {}) {
  const config = loadConfig({ ...fake.env(), JUDGEFLOW_LLM_MAX_RETRIES: '0', ...env })
  return createJudgeflow(config, { store: location ? stores.openAt(location) : await stores.open() })
}

const cases = [
  { id: 'q1', input: { question: 'How do I get a refund?' }, expected: { verdict: 'pass' as const }, tags: ['billing'] },
  { id: 'q2', input: { question: 'Where is my refund?' }, expected: { verdict: 'pass' as const }, tags: ['billing'] },
  { id: 'q3', input: { question: 'What is the weather?' }, expected: { verdict: 'pass' as const } },
  { id: 'q4', input: { question: 'Tell me a joke' }, expected: { verdict: 'fail' as const } },
]

async function finished(app: Judgeflow, id: string) {
  await app.datasets.whenDone(id)
  const row = (await app.store.datasets.getRun(id))!
  return { row, report: row.report as unknown as DatasetReport }
}

describe.each(storeFactories)('dataset runs ($name)', (factory) => {
  beforeAll(() => { stores = factory })

  it('runs a saved workflow over every case as normal runs, and reports verdicts, scores and agreement', async () => {
    scripted()
    app = await makeApp()
    const workflow = await app.store.workflows.create(gate)
    const dataset = await app.store.datasets.create('support', cases)
    const heard: number[] = []
    const started = await app.datasets.start({ dataset: 'support', target: { workflow_id: 'Support answers' }, concurrency: 2, gates: { min_pass_rate: 0.9 } })
    app.datasets.subscribe(started.id, p => heard.push(p.done))
    const { row, report } = await finished(app, started.id)
    expect(row.status).toBe('finished')
    expect(report).toMatchObject({ dataset: { id: dataset.id, name: 'support', version: 1 }, target: { workflow_id: workflow.id }, cases: 4, passed: 2, failed: 2, errored: 0, pass_rate: 0.5 })
    expect(report.agreement).toMatchObject({ labelled: 4, confusion: { pass_pass: 2, pass_fail: 1, fail_pass: 0, fail_fail: 1 } })
    expect(report.gates).toContainEqual(expect.objectContaining({ gate: 'min_pass_rate', passed: false }))
    expect(heard.at(-1)).toBe(4)
    const q1 = report.results.find(r => r.case_id === 'q1')!
    expect(q1).toMatchObject({ status: 'succeeded', verdict: 'pass', score: 0.9 })
    // Each case ran as a normal run of the workflow, at the version the dataset run started on.
    expect(await app.store.runs.get(q1.run_id!)).toMatchObject({ workflowId: workflow.id, workflowVersion: 1, status: 'succeeded', input: { question: 'How do I get a refund?' } })
  })

  it('takes the gates and an earlier report as its baseline, and runs only the cases asked for, with the inputs and grader given', async () => {
    scripted()
    app = await makeApp()
    const saved = await app.store.workflows.create(gate)
    await app.store.datasets.create('support', cases)
    const earlier = {
      dataset: { id: 'elsewhere', name: 'support', version: 1 },
      results: [{ case_id: 'q1', repeat: 1, status: 'succeeded', verdict: 'fail' }, { case_id: 'q3', repeat: 1, status: 'succeeded', verdict: 'pass' }],
    }
    const started = await app.datasets.start({
      dataset: 'support', target: { workflow_id: 'Support answers' }, case_ids: ['q1', 'q3'], vars: { question: 'A refund, please' }, grader: 'openai:gpt-grader',
      gates: { no_regressions: true }, baseline_report: earlier, baseline_label: 'earlier.json',
    })
    const { report } = await finished(app, started.id)
    // Both cases asked about a refund: each passed, so q1 is fixed and q3 kept.
    expect(report).toMatchObject({ cases: 2, passed: 2, baseline: { report: 'earlier.json', regressions: [], fixes: ['q1'] } })
    expect(report.gates).toContainEqual(expect.objectContaining({ gate: 'no_regressions', passed: true }))
    // (The two cases' judge requests are the same: the second may be answered from the cache.)
    expect(new Set(fake.requests.filter(r => r.body.response_format).map(r => r.body.model))).toEqual(new Set(['gpt-grader']))
    // The saved workflow keeps its own judge.
    expect((await app.store.workflows.get(saved.id))!.definition).toEqual(expect.objectContaining({ nodes: gate.nodes }))
    await expect(app.datasets.start({ dataset: 'support', target: { workflow_id: 'Support answers' }, case_ids: ['q9'] })).rejects.toThrow('case_ids: the dataset has no case "q9"')
    await expect(app.datasets.start({ dataset: 'support', target: { workflow_id: 'Support answers' }, baseline_report: { results: [] } })).rejects.toThrow(/^baseline_report is not a report written by judgeflow test --report: dataset: is required/)
    await expect(app.datasets.start({ dataset: 'support', target: { workflow_id: 'Support answers' }, baseline_run_id: started.id, baseline_report: earlier })).rejects.toThrow('baseline_report: give baseline_run_id or baseline_report, not both')
    await expect(app.datasets.start({ dataset: 'support', target: { workflow_id: 'Support answers' }, gates: { max_flaky: 0.1 } })).rejects.toThrow('gates.max_flaky: needs repeat of 2 or more: a case run once cannot be flaky')
    await expect(app.datasets.start({ dataset: 'support', target: { workflow_id: 'Support answers' }, max_cost_usd: 0 })).rejects.toThrow('max_cost_usd: must be more than 0')
    await expect(app.datasets.start({ dataset: 'support', target: { workflow_id: 'Support answers' }, require_calibration: { dataset: 'labelled', min_kappa: 0.6 } }))
      .rejects.toThrow('require_calibration: the judge is not calibrated: there is no dataset or review queue "labelled"')
  })

  it('shows a finished dataset run from its kept report, with the progress its stored cases give, until the run is deleted', async () => {
    scripted()
    app = await makeApp()
    await app.store.workflows.create(gate)
    const dataset = await app.store.datasets.create('support', cases)
    const started = await app.datasets.start({ dataset: 'support', target: { workflow_id: 'Support answers' }, concurrency: 2 })
    const { report } = await finished(app, started.id)
    const fromCases = await app.datasets.progressOf({ id: started.id, status: 'finished' })
    const first = (await app.datasets.detail(started.id))!
    expect(first.report).toEqual(report)
    expect(first.progress).toEqual(fromCases)
    expect(first.progress).toMatchObject({ status: 'finished', total: 4, done: 4, passed: 2, failed: 2, errored: 0 })
    expect(first.row).toMatchObject({ id: started.id, status: 'finished', datasetId: dataset.id })
    // Read once: the second answer is the same report, not read again.
    const second = (await app.datasets.detail(started.id))!
    expect(second.report).toBe(first.report)
    expect(second.progress).toEqual(first.progress)
    await app.store.datasets.delete(dataset.id)
    expect(await app.datasets.detail(started.id)).toBeNull()
    expect(await app.datasets.detail('no-such-run')).toBeNull()
  })

  it('slows down under a storm of 429s instead of erroring cases, and reports a provider failure as errored, never a pass', async () => {
    scripted({ limitFirst: 6, downFor: 'weather' })
    app = await makeApp()
    await app.store.workflows.create(gate)
    await app.store.datasets.create('support', cases)
    const started = await app.datasets.start({ dataset: 'support', target: { workflow_id: 'Support answers' }, concurrency: 4 })
    const { report } = await finished(app, started.id)
    expect(report.results.map(r => [r.case_id, r.status]).sort()).toEqual([['q1', 'succeeded'], ['q2', 'succeeded'], ['q3', 'errored'], ['q4', 'succeeded']])
    expect(report).toMatchObject({ passed: 2, failed: 1, errored: 1 })
    expect(report.results.find(r => r.case_id === 'q3')!.error).toMatch(/HTTP 500/)
  })

  it('judges with an evaluator config alone, passing the case\'s content and context', async () => {
    app = await makeApp()
    await app.store.datasets.create('answers', [
      { id: 'a', input: { content: 'Refunds take five days.', context: 'How long do refunds take?' } },
      { id: 'b', input: { content: 'Maybe.', context: 'How long do refunds take?' } },
    ])
    const started = await app.datasets.start({ dataset: 'answers', target: { evaluator: { evaluation_type: 'scoring', model: 'local:heuristic', pass_threshold: 0.5 } } })
    const { report } = await finished(app, started.id)
    expect(report.target).toEqual({ evaluator: true })
    expect(report.results.map(r => r.status)).toEqual(['succeeded', 'succeeded'])
    const run = (await app.store.runs.get(report.results[0]!.run_id!))!
    expect(run.workflowId).toBeNull()
    expect((run.definition as { nodes: Array<{ config?: Record<string, unknown> }> }).nodes[1]!.config).toMatchObject({ content: '{{input.content}}', context: '{{input.context}}' })
  })

  it('refuses a request naming what is wrong', async () => {
    app = await makeApp()
    await app.store.datasets.create('support', cases)
    await expect(app.datasets.start({ dataset: 'nope', target: { workflow_id: 'x' } })).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'dataset "nope" does not exist' })
    await expect(app.datasets.start({ dataset: 'support', target: { workflow_id: 'x' } })).rejects.toMatchObject({ message: 'target.workflow_id: no workflow has the id or name "x": choose one of the stored workflows' })
    await expect(app.datasets.start({ dataset: 'support', target: { workflow_id: 'x' }, concurrency: 0 })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/^concurrency: /) })
    await app.store.workflows.create(gate)
    await expect(app.datasets.start({ dataset: 'support', target: { workflow_id: 'Support answers' }, score_step: 'draft' })).rejects.toMatchObject({ message: 'score_step: the workflow has no evaluator step "draft"' })
  })

  it('after a restart, keeps the finished cases, follows a run that was under way, and runs no finished case twice', async () => {
    scripted()
    const dbPath = await stores.durable()
    app = await makeApp(dbPath)
    await app.store.workflows.create(gate)
    await app.store.datasets.create('support', cases)
    const started = await app.datasets.start({ dataset: 'support', target: { workflow_id: 'Support answers' }, concurrency: 1 })
    // Stop once two cases are done, as a process stopping would (the dataset run stays "running").
    await new Promise<void>((resolve) => {
      const stop = app!.datasets.subscribe(started.id, (p) => {
        if (p.done >= 2) {
          stop()
          resolve()
        }
      })
    })
    await app.close(0)
    const before = await (async () => {
      const again = await makeApp(dbPath)
      const rows = await again.store.datasets.runCases(started.id)
      await again.close(0)
      return rows
    })()
    const finishedBefore = before.filter(r => r.status !== 'running').map(r => r.runId)
    expect(finishedBefore.length).toBeGreaterThanOrEqual(2)
    const callsBefore = fake.requests.length

    app = await makeApp(dbPath)
    await app.runs.resumeUnfinished()
    expect(await app.datasets.resumeOpen()).toBe(1)
    const { row, report } = await finished(app, started.id)
    expect(row.status).toBe('finished')
    expect(report.results).toHaveLength(4)
    expect(report.results.map(r => r.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded'])
    // The finished cases kept their runs; the rest ran once each (an LLM call and a judge call per case).
    for (const runId of finishedBefore) expect(report.results.some(r => r.run_id === runId)).toBe(true)
    expect(fake.requests.length - callsBefore).toBeLessThanOrEqual(2 * (4 - finishedBefore.length))
  })

  it('holds a budget: a run estimated over it is refused before it starts, forced it starts only what the budget pays for, and its gate is in the report beside the default gates', async () => {
    scripted()
    app = await makeApp()
    await app.store.workflows.create(gate)
    await app.store.datasets.create('support', cases)
    const request = { dataset: 'support', target: { workflow_id: 'Support answers' }, concurrency: 4, max_cost_usd: 0.000001 }
    const estimate = await app.datasets.estimate(request)
    expect(estimate.estimate_usd).toBeGreaterThan(0.000001)
    await expect(app.datasets.start(request)).rejects.toThrow(expect.objectContaining({
      code: 'INVALID_INPUT', message: expect.stringMatching(/^max_cost_usd: the run is estimated at \$[\d.]+ for 4 case runs, over the budget of \$0\.000001; raise the budget/),
    }))
    expect(await app.store.datasets.runs((await app.store.datasets.findByName('support'))!.id)).toEqual([])
    expect(fake.requests).toHaveLength(0)
    const forced = await app.datasets.start({ ...request, force: true })
    const { report } = await finished(app, forced.id)
    // No case run fits: none starts, and the report's budget gate says why it fails.
    expect(fake.requests).toHaveLength(0)
    expect(report.not_run).toEqual(['q1', 'q2', 'q3', 'q4'])
    // Asked for no gate, the run has the defaults (every case passes, none errors): with no case judged, the pass rate has nothing to measure.
    expect(report.gates).toEqual([
      { gate: 'min_pass_rate', required: 1, actual: null, passed: false },
      { gate: 'max_cost_usd', required: 0.000001, actual: 0, passed: false },
      { gate: 'max_errors', required: 0, actual: 0, passed: true },
    ])
  })

  it('cancels: no case starts after, and the dataset run ends cancelled with what was done', async () => {
    fake.onRequest(async () => ({ text: 'slow', delayMs: 300 }))
    app = await makeApp()
    await app.store.workflows.create({ ...gate, nodes: gate.nodes.slice(0, 2), edges: gate.edges.slice(0, 1) })
    await app.store.datasets.create('support', cases)
    const started = await app.datasets.start({ dataset: 'support', target: { workflow_id: 'Support answers' }, concurrency: 1 })
    // Cancelled while the first case's call is under way.
    await vi.waitFor(() => expect(fake.requests.length).toBe(1))
    expect(app.datasets.cancel(started.id)).toBe(true)
    const { row } = await finished(app, started.id)
    expect(row.status).toBe('cancelled')
    expect(fake.requests.length).toBe(1)
  })

  it('with repeats, the progress counts each case once, as the report does: its last progress, its detail and its stored cases agree with it', async () => {
    scripted()
    app = await makeApp()
    await app.store.workflows.create(gate)
    await app.store.datasets.create('support', cases)
    const started = await app.datasets.start({ dataset: 'support', target: { workflow_id: 'Support answers' }, concurrency: 4, repeat: 3 })
    const heard: DatasetRunProgress[] = []
    app.datasets.subscribe(started.id, p => heard.push(p))
    const { report } = await finished(app, started.id)
    expect(report).toMatchObject({ cases: 4, passed: 2, failed: 2, errored: 0 })
    const counts = { passed: 2, failed: 2, errored: 0, done: 12 }
    expect(heard.at(-1)).toMatchObject({ status: 'finished', total: 12, ...counts })
    expect((await app.datasets.detail(started.id))!.progress).toEqual(heard.at(-1))
    expect(await app.datasets.progressOf({ id: started.id, status: 'finished' })).toMatchObject(counts)
  })

  it('cancelling closes the case runs in flight as cancelled, and the progress counts cases as the report does', async () => {
    fake.onRequest((request) => {
      const body = JSON.stringify(request.body)
      if (request.body.response_format) return { json: { criteria_scores: { helpful: body.includes('good answer') ? 0.9 : 0.2 }, feedback: 'ok', suggestions: [] } }
      // The last case's answers take long: they are in flight when the dataset run is cancelled.
      if (body.includes('joke')) return { text: 'a joke', delayMs: 3_000 }
      return { text: body.includes('refund') ? 'a good answer about refunds' : 'a vague reply' }
    })
    app = await makeApp()
    await app.store.workflows.create(gate)
    await app.store.datasets.create('support', cases)
    const started = await app.datasets.start({ dataset: 'support', target: { workflow_id: 'Support answers' }, concurrency: 4, repeat: 3 })
    const heard: DatasetRunProgress[] = []
    app.datasets.subscribe(started.id, p => heard.push(p))
    await vi.waitFor(() => {
      expect(heard.at(-1)?.done).toBe(9)
      expect(fake.requests.filter(r => JSON.stringify(r.body).includes('joke'))).toHaveLength(3)
    }, { timeout: 20_000 })
    expect(app.datasets.cancel(started.id)).toBe(true)
    const { row, report } = await finished(app, started.id)
    expect(row.status).toBe('cancelled')
    // q1 and q2 passed 3 times each, q3 failed 3 times; q4's runs were cut off, so it has no outcome.
    expect(report).toMatchObject({ cases: 4, passed: 2, failed: 1, errored: 0 })
    const rows = await app.store.datasets.runCases(started.id)
    expect(rows.filter(r => r.status === 'running')).toEqual([])
    const cancelled = rows.filter(r => r.status === 'cancelled')
    expect(cancelled.map(r => [r.caseId, r.repeat]).sort()).toEqual([['q4', 1], ['q4', 2], ['q4', 3]])
    for (const r of cancelled) expect(await app.store.runs.get(r.runId!)).toMatchObject({ status: 'cancelled' })
    const counts = { passed: 2, failed: 1, errored: 0, done: 9, not_run: 3 }
    expect(heard.at(-1)).toEqual({ id: started.id, status: 'cancelled', total: 12, ...counts })
    // Read back once the run has ended (as a view opened afterwards does), the progress is the same, not-run cases included.
    expect((await app.datasets.detail(started.id))!.progress).toEqual(heard.at(-1))
    expect((await app.datasets.detail(started.id))!.progress).toEqual(heard.at(-1))
    expect(await app.datasets.progressOf({ id: started.id, status: 'cancelled' })).toMatchObject(counts)
  })
})
