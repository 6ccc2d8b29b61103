import { beforeAll, describe, expect, it, vi } from 'vitest'
import { loadConfig, type Store } from '../../../core'
import { createSqliteStore, openDatabase } from '../../../db'
import { apiRoutes, type ApiAnswer } from '../../support/api-routes'

/** The review queues API over a SQLite store: queues from a dataset run, runs and online decisions; blind reviewing; agreement. */
const served = vi.hoisted(() => ({ config: undefined as ReturnType<typeof loadConfig> | undefined, app: undefined as { store: Store } | undefined }))
vi.mock('../../../server/utils/config', () => ({ judgeflowConfig: () => served.config }))
vi.mock('../../../server/utils/context', () => ({ useJudgeflow: () => served.app }))

let call: Awaited<ReturnType<typeof apiRoutes>>
let store: Store
let datasetRunId = ''

const json = (method: string, body: unknown): RequestInit => ({ method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
const problems = (answer: ApiAnswer) => (answer.body?.data as { problems: Array<{ path: string, message: string }> }).problems

/** Case, the judge's verdicts by repeat, its confidence. Case c5 errored. */
const JUDGED: Array<[string, Array<'pass' | 'fail'>, number]> = [['c1', ['pass'], 0.9], ['c2', ['fail', 'pass'], 0.4], ['c3', ['pass'], 0.8], ['c4', ['fail'], 0.95]]

beforeAll(async () => {
  served.config = loadConfig({})
  store = createSqliteStore(openDatabase(':memory:'))
  served.app = { store }
  const cases = ['c1', 'c2', 'c3', 'c4', 'c5'].map(id => ({ id, input: { question: `question ${id}`, context: `context ${id}` }, expected: { verdict: 'pass' } }))
  const dataset = await store.datasets.create('support', cases)
  const run = await store.datasets.createRun({ datasetId: dataset.id, datasetVersion: 1, target: { evaluator: true }, options: {} })
  datasetRunId = run.id
  for (const [caseId, verdicts, confidence] of JUDGED) {
    for (const [n, verdict] of verdicts.entries()) {
      const result = { case_id: caseId, repeat: n + 1, status: 'succeeded', verdict, score: verdict === 'pass' ? 0.8 : 0.3, confidence, output: `answer ${caseId}`, reason: 'because', judge_fingerprint: 'fp-1' }
      await store.datasets.saveRunCase({ datasetRunId: run.id, caseId, repeat: n + 1, status: 'succeeded', runId: null, result })
    }
  }
  await store.datasets.saveRunCase({ datasetRunId: run.id, caseId: 'c5', repeat: 1, status: 'errored', runId: null, result: { case_id: 'c5', repeat: 1, status: 'errored', error: 'timeout' } })
  call = await apiRoutes([
    ['post', '/api/queues', 'queues/index.post.ts'],
    ['get', '/api/queues', 'queues/index.get.ts'],
    ['get', '/api/queues/:id', 'queues/[id].get.ts'],
    ['post', '/api/queues/:id/items', 'queues/[id]/items.post.ts'],
    ['post', '/api/queues/:id/next', 'queues/[id]/next.post.ts'],
    ['post', '/api/queues/:id/skip', 'queues/[id]/skip.post.ts'],
    ['post', '/api/queues/:id/labels', 'queues/[id]/labels.post.ts'],
    ['get', '/api/queues/:id/agreement', 'queues/[id]/agreement.get.ts'],
  ])
})

const fromRun = (select: Record<string, unknown> = {}) => ({ from: 'dataset_run', dataset_run_id: datasetRunId, ...select })

describe('review queues', () => {
  it('creates a queue from a dataset run\'s judged cases, with defaults, and lists it with its progress', async () => {
    const created = await call('/api/queues', json('POST', { name: 'helpfulness', reviewers_per_item: 2, items: fromRun() }))
    expect(created).toMatchObject({
      status: 201,
      body: {
        id: expect.any(String), name: 'helpfulness', rubric: { labels: ['pass', 'fail'], score: false, comment: true }, instructions: null,
        reviewers_per_item: 2, lease_minutes: 30, show_judge: false, progress: { items: 4, complete: 0, by_reviewer: {} },
      },
    })
    const listed = (await call('/api/queues')).body as unknown as Array<{ id: string }>
    expect(listed.map(q => q.id)).toContain(created.body!.id)
    expect(await call(`/api/queues/${created.body!.id}`)).toMatchObject({ status: 200, body: { name: 'helpfulness', progress: { items: 4 } } })
    expect((await call('/api/queues/nope')).status).toBe(404)
  })

  it('selects the failed, disagreeing, low-confidence or a seeded sample of cases; adds each once', async () => {
    const { body } = await call('/api/queues', json('POST', { name: 'picked' }))
    const add = (source: unknown) => call(`/api/queues/${body!.id}/items`, json('POST', source))
    expect((await add(fromRun({ select: 'failed' }))).body).toMatchObject({ added: 2 })
    expect((await add(fromRun({ select: 'disagreeing' }))).body).toMatchObject({ added: 0 })
    expect((await add(fromRun({ select: 'low_confidence', max_confidence: 0.85 }))).body).toMatchObject({ added: 1 })
    expect((await add(fromRun({ select: 'sample', sample_size: 2, seed: 7 }))).body).toMatchObject({ progress: { items: expect.any(Number) } })
    expect((await add(fromRun())).body).toMatchObject({ progress: { items: 4 } })
    const items = await store.review.items(body!.id as string)
    // Failed: c2 (its first repeat) and c4; disagreeing: c2 again; confidence under 0.85: c2 again and c3; then the one left, c1.
    expect(items.map(i => (i.source as { case_id: string }).case_id)).toEqual(['c2', 'c4', 'c3', 'c1'])
    expect(items[0]).toMatchObject({ input: { question: 'question c2' }, output: 'answer c2', context: 'context c2', judge: { verdict: 'fail', score: 0.3, confidence: 0.4, fingerprint: 'fp-1' } })
  })

  it('adds runs picked on the runs page and an online rule\'s low scores, with their whole input and output', async () => {
    const run = await store.runs.create({ definition: { name: 'w', nodes: [{ id: 'judge', type: 'evaluator' }], edges: [] }, input: { question: 'why?' } })
    const rule = await store.online.createRule({ name: 'r', enabled: true, evaluator: { config: {} }, filter: {}, sampleRate: 1, maxPerMinute: null, maxCostUsdPerDay: null })
    const span = (n: number) => ({
      traceId: String(n).padStart(32, '0'), spanId: String(n).padStart(16, '0'), parentSpanId: null, name: 'chat', serviceName: 'shop', operation: 'chat', model: 'm',
      inputText: `asked ${n}`, outputText: `said ${n}`, systemInstructions: null, usage: null, statusCode: 0, startedAt: n, endedAt: n, attributes: {}, receivedAt: n,
    })
    await store.online.ingest([span(1), span(2)], [1, 2].map(n => ({
      ruleId: rule.id, traceId: span(n).traceId, spanId: span(n).spanId, status: 'scored', reason: null, score: n === 1 ? 0.2 : 0.9, verdict: n === 1 ? 'fail' : 'pass',
      runId: null, costUsd: null, decidedAt: n, claimedAt: null, updatedAt: n,
    })))
    const { body } = await call('/api/queues', json('POST', { name: 'mixed', items: { from: 'runs', run_ids: [run.id] } }))
    expect((await call(`/api/queues/${body!.id}/items`, json('POST', { from: 'online', rule_id: rule.id, max_score: 0.5 }))).body).toMatchObject({ added: 1 })
    const items = await store.review.items(body!.id as string)
    expect(items.map(i => [i.source, i.input, i.output, i.judge?.verdict ?? null])).toEqual([
      [{ kind: 'run', run_id: run.id }, { question: 'why?' }, null, null],
      [{ kind: 'online', rule_id: rule.id, trace_id: span(1).traceId, span_id: span(1).spanId }, 'asked 1', 'said 1', 'fail'],
    ])
  })

  it('names each bad field: 400', async () => {
    const bad = await call('/api/queues', json('POST', { name: '', reviewers_per_item: 0, rubric: { labels: ['good'] }, lease_minutes: 1.5 }))
    expect(problems(bad)).toEqual(expect.arrayContaining([
      { path: 'name', message: 'must not be empty' },
      { path: 'reviewers_per_item', message: 'must be at least 1' },
      { path: 'rubric.labels', message: 'must offer at least 2 labels' },
      { path: 'lease_minutes', message: 'must be a whole number' },
    ]))
    expect(problems(await call('/api/queues', json('POST', { name: 'x', items: { from: 'dataset_run', dataset_run_id: 'r', select: 'sample' } }))))
      .toEqual([{ path: 'items.sample_size', message: 'is required with select: sample' }])
    expect(await call('/api/queues', json('POST', { name: 'x', items: { from: 'runs', run_ids: ['nope'] } })))
      .toMatchObject({ status: 400, body: { message: 'items.run_ids.0: no run with id "nope"' } })
    expect(await call('/api/queues', json('POST', { name: 'x', items: { from: 'online', rule_id: 'nope' } })))
      .toMatchObject({ status: 400, body: { message: 'items.rule_id: no online rule with id "nope"' } })
    expect((await call('/api/queues')).body).not.toContainEqual(expect.objectContaining({ name: 'x' }))
    const { body: queue } = await call('/api/queues', json('POST', { name: 'y' }))
    expect(await call(`/api/queues/${queue!.id}/items`, json('POST', { from: 'dataset_run', dataset_run_id: 'nope' })))
      .toMatchObject({ status: 400, body: { message: 'dataset_run_id: no dataset run with id "nope"' } })
    expect(problems(await call(`/api/queues/${queue!.id}/items`, json('POST', { from: 'files' }))))
      .toEqual([{ path: 'from', message: 'must say where the items come from: from is dataset_run, runs or online' }])
  })
})

describe('reviewing', () => {
  it('hands two reviewers the same item blind to each other\'s labels, with the judge hidden; refuses a label the rubric lacks', async () => {
    const { body: queue } = await call('/api/queues', json('POST', { name: 'blind', reviewers_per_item: 2, items: fromRun() }))
    const next = (reviewer: string) => call(`/api/queues/${queue!.id}/next`, json('POST', { reviewer }))
    const ana = (await next('ana')).body!
    expect(ana).toMatchObject({ item: { position: 1, input: { question: 'question c1' }, output: 'answer c1', judge: null }, leased_until: expect.any(String) })
    const item = ana.item as { id: string }
    expect((await call(`/api/queues/${queue!.id}/labels`, json('POST', { item_id: item.id, reviewer: 'ana', label: 'pass', comment: 'clear' })))).toMatchObject({
      status: 201, body: { item_id: item.id, reviewer: 'ana', label: 'pass', score: null, comment: 'clear' },
    })
    const bo = (await next('bo')).body!
    expect((bo.item as { id: string }).id).toBe(item.id)
    expect(JSON.stringify(bo)).not.toMatch(/ana|clear/)
    expect((await next('ana')).body).toMatchObject({ item: { position: 2 } })
    expect(await call(`/api/queues/${queue!.id}/labels`, json('POST', { item_id: item.id, reviewer: 'bo', label: 'maybe', score: 0.5 })))
      .toMatchObject({ status: 400, body: { message: 'label: must be one of pass, fail' } })
    expect(await call(`/api/queues/${queue!.id}/labels`, json('POST', { item_id: item.id, reviewer: 'bo', label: 'pass', score: 0.5 })))
      .toMatchObject({ status: 400, body: { message: 'score: this queue\'s rubric takes no score' } })
    expect((await call(`/api/queues/${queue!.id}/labels`, json('POST', { item_id: 'nope', reviewer: 'bo', label: 'pass' }))).status).toBe(404)
    expect(problems(await call(`/api/queues/${queue!.id}/next`, json('POST', {})))).toEqual([{ path: 'reviewer', message: expect.any(String) }])
    expect((await call(`/api/queues/${queue!.id}/skip`, json('POST', { item_id: item.id, reviewer: 'bo' }))).status).toBe(204)
    expect((await next('bo')).body).toMatchObject({ item: { position: 2 } })
  })

  it('measures people against each other and the judge against their consensus (hand-worked κ and α)', async () => {
    const { body: queue } = await call('/api/queues', json('POST', { name: 'agreement', reviewers_per_item: 2, show_judge: true, items: fromRun() }))
    const items = await store.review.items(queue!.id as string)
    // ana: pass pass fail fail; bo: pass fail fail fail.
    const given: Record<string, string[]> = { ana: ['pass', 'pass', 'fail', 'fail'], bo: ['pass', 'fail', 'fail', 'fail'] }
    for (const [reviewer, labels] of Object.entries(given)) {
      for (const [n, label] of labels.entries()) await call(`/api/queues/${queue!.id}/labels`, json('POST', { item_id: items[n]!.id, reviewer, label }))
    }
    const { body } = await call(`/api/queues/${queue!.id}/agreement`)
    // Cohen: p_o 3/4, p_e ½·¼ + ½·¾ = ½, κ = ½. α: n 8 (3 pass, 5 fail), one disagreeing item: 1 − 7·2 / (64 − 9 − 25) = 8/15.
    expect(body).toMatchObject({
      items: 4, labelled_items: 4,
      people: { reviewers: 2, kappa: { kind: 'cohen', value: 0.5, items: 4 }, alpha: { value: 0.5333, items: 4 } },
      consensus: { agreed: 3, tied: 1, unlabelled: 0 },
      // The judge (pass, pass, fail) against the consensus (pass, fail, fail): p_o ⅔, p_e ⅔·⅓ + ⅓·⅔ = 4/9, κ = (2/9) / (5/9) = 0.4.
      judge: { fingerprint: 'fp-1', compared: 3, kappa: 0.4, accuracy: 0.6667, confusion: { pass: { pass: 1 }, fail: { pass: 1, fail: 1 } } },
    })
    expect(await call(`/api/queues/${queue!.id}`)).toMatchObject({ body: { progress: { items: 4, complete: 4, by_reviewer: { ana: 4, bo: 4 } } } })
    expect((await call('/api/queues/nope/agreement')).status).toBe(404)
  })

  it('takes Fleiss\' κ for three reviewers (hand-worked), with α beside it', async () => {
    const { body: queue } = await call('/api/queues', json('POST', { name: 'three', reviewers_per_item: 3, items: fromRun() }))
    const items = await store.review.items(queue!.id as string)
    const given: Record<string, string[]> = { ana: ['pass', 'pass', 'fail', 'pass'], bo: ['pass', 'pass', 'fail', 'fail'], cy: ['pass', 'fail', 'fail', 'fail'] }
    for (const [reviewer, labels] of Object.entries(given)) {
      for (const [n, label] of labels.entries()) await call(`/api/queues/${queue!.id}/labels`, json('POST', { item_id: items[n]!.id, reviewer, label }))
    }
    // P_i 1, ⅓, 1, ⅓: P̄ ⅔; p_pass = p_fail = ½, P̄e ½; κ = (⅔ − ½) / ½ = ⅓. α: n 12 (6 and 6), 4 disagreeing pairs: 1 − 11·4 / (144 − 36 − 36) = 28/72.
    expect((await call(`/api/queues/${queue!.id}/agreement`)).body).toMatchObject({
      people: { reviewers: 3, kappa: { kind: 'fleiss', value: 0.3333, items: 4 }, alpha: { value: 0.3889, items: 4 } },
    })
  })
})
