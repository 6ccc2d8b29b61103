import { beforeAll, describe, expect, it, vi } from 'vitest'
import { loadConfig, type Store } from '../../../core'
import { createSqliteStore, openDatabase } from '../../../db'
import { sampled } from '../../../engine/online/selection'
import { apiRoutes, type ApiAnswer } from '../../support/api-routes'

/** The online rules API and the decisions feed, over a SQLite store, fed by POST /v1/traces. */
const served = vi.hoisted(() => ({ config: undefined as ReturnType<typeof loadConfig> | undefined, app: undefined as { store: Store } | undefined }))
vi.mock('../../../server/utils/config', () => ({ judgeflowConfig: () => served.config }))
vi.mock('../../../server/utils/context', () => ({ useJudgeflow: () => served.app }))

let call: Awaited<ReturnType<typeof apiRoutes>>
let store: Store
let workflowId = ''

beforeAll(async () => {
  served.config = loadConfig({})
  store = createSqliteStore(openDatabase(':memory:'))
  served.app = { store }
  workflowId = (await store.workflows.create({ name: 'support', nodes: [{ id: 'answer', type: 'llm' }, { id: 'judge', type: 'evaluator' }], edges: [] })).id
  call = await apiRoutes([
    ['post', '/api/online/rules', 'online/rules/index.post.ts'],
    ['get', '/api/online/rules', 'online/rules/index.get.ts'],
    ['put', '/api/online/rules/:id', 'online/rules/[id].put.ts'],
    ['delete', '/api/online/rules/:id', 'online/rules/[id].delete.ts'],
    ['get', '/api/online/decisions', 'online/decisions.get.ts'],
    ['get', '/api/online/scores', 'online/scores.get.ts'],
    ['get', '/api/online/events', 'online/events.get.ts'],
    ['post', '/v1/traces', '../routes/v1/traces.post.ts'],
  ])
})

const json = (method: string, body: unknown): RequestInit => ({ method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
const criteria = { evaluation_type: 'criteria', model: 'local:heuristic', criteria: [{ name: 'helpfulness', weight: 1 }], pass_threshold: 0.6 }
const problems = (answer: ApiAnswer) => (answer.body?.data as { problems: Array<{ path: string, message: string }> }).problems

describe('the online rules API', () => {
  it('creates a rule from a workflow\'s evaluator step or an evaluator config, with defaults, and answers it with its id', async () => {
    const created = await call('/api/online/rules', json('POST', { name: 'helpful', evaluator: { workflow_id: workflowId, step_id: 'judge' }, sample_rate: 0.1 }))
    expect(created).toMatchObject({
      status: 201,
      body: { id: expect.any(String), name: 'helpful', enabled: true, evaluator: { workflow_id: workflowId, step_id: 'judge' }, filter: {}, sample_rate: 0.1, max_per_minute: 60, max_cost_usd_per_day: null },
    })
    const config = await call('/api/online/rules', json('POST', { name: 'by config', evaluator: { config: criteria }, filter: { model: 'gpt-4o', attributes: { 'app.tier': 'gold' } }, sample_rate: 1, max_cost_usd_per_day: 2.5 }))
    expect(config).toMatchObject({ status: 201, body: { evaluator: { config: { evaluation_type: 'criteria' } }, max_cost_usd_per_day: 2.5 } })
    expect((await call('/api/online/rules')).body).toEqual([config.body, created.body])
  })

  it('names the field of a bad rule: 400 with each problem', async () => {
    const bad = await call('/api/online/rules', json('POST', { name: '', evaluator: { workflow_id: 'w' }, sample_rate: 2, max_per_minute: 0.5, filter: { colour: 'red' } }))
    expect(bad.status).toBe(400)
    expect(problems(bad)).toEqual(expect.arrayContaining([
      { path: 'name', message: 'must not be empty' },
      { path: 'evaluator.step_id', message: 'is required with workflow_id' },
      { path: 'sample_rate', message: 'must be from 0 to 1' },
      { path: 'max_per_minute', message: 'must be a whole number' },
      expect.objectContaining({ path: 'filter', message: expect.stringContaining('colour') }),
    ]))
    expect(problems(await call('/api/online/rules', json('POST', { name: 'x', evaluator: { config: { evaluation_type: 'telepathy' } }, sample_rate: 1 }))))
      .toEqual([expect.objectContaining({ path: 'evaluator.config.evaluation_type' })])
    expect(await call('/api/online/rules', json('POST', { name: 'x', evaluator: { workflow_id: workflowId, step_id: 'answer' }, sample_rate: 1 })))
      .toMatchObject({ status: 400, body: { message: 'evaluator.step_id: workflow "support" has no evaluator step "answer"' } })
    expect(await call('/api/online/rules', json('POST', { name: 'x', evaluator: { workflow_id: 'nope', step_id: 'judge' }, sample_rate: 1 })))
      .toMatchObject({ status: 400, body: { message: 'evaluator.workflow_id: no workflow with id "nope"' } })
  })

  it('pauses a rule with PUT, deletes it with DELETE, and answers 404 for a rule that is not there', async () => {
    const { body } = await call('/api/online/rules', json('POST', { name: 'to pause', evaluator: { config: criteria }, sample_rate: 0.5 }))
    const id = body!.id as string
    const paused = await call(`/api/online/rules/${id}`, json('PUT', { name: 'paused', enabled: false, evaluator: { config: criteria }, sample_rate: 0.5 }))
    expect(paused).toMatchObject({ status: 200, body: { id, name: 'paused', enabled: false, created_at: body!.created_at } })
    expect((await call('/api/online/rules/nope', json('PUT', { name: 'x', evaluator: { config: criteria }, sample_rate: 1 }))).status).toBe(404)
    expect((await call(`/api/online/rules/${id}`, { method: 'DELETE' })).status).toBe(204)
    expect((await call(`/api/online/rules/${id}`, { method: 'DELETE' })).status).toBe(404)
  })
})

describe('the decisions feed', () => {
  it('shows what each rule decided for each span and why, by rule and status, page by page; the scores are the scored ones', async () => {
    const { body: rule } = await call('/api/online/rules', json('POST', { name: 'feed', evaluator: { config: criteria }, filter: { service_name: 'shop' }, sample_rate: 0.5 }))
    const ids = Array.from({ length: 30 }, (_, n) => ({ traceId: (n + 1).toString(16).padStart(32, 'a'), spanId: 'b'.repeat(16) }))
    const sent = await call('/v1/traces', json('POST', exportOf('shop', ids.slice(0, 25))))
    expect(sent).toMatchObject({ status: 200, body: {} })
    await call('/v1/traces', json('POST', exportOf('other', ids.slice(25))))
    const feed = await call(`/api/online/decisions?rule=${rule!.id}&limit=10`)
    expect(feed.body!.decisions).toHaveLength(10)
    const pages = [...(feed.body!.decisions as Array<Record<string, unknown>>)]
    for (let next = feed.body!.next as string | null; next;) {
      const page = await call(`/api/online/decisions?rule=${rule!.id}&limit=10&after=${next}`)
      pages.push(...(page.body!.decisions as Array<Record<string, unknown>>))
      next = page.body!.next as string | null
    }
    expect(pages).toHaveLength(30)
    expect(new Set(pages.map(d => d.trace_id)).size).toBe(30)
    expect(pages.find(d => d.status === 'filtered')).toMatchObject({ reason: 'service.name is "other", not "shop"', span: { service_name: 'other', input: 'question', output: 'answer' } })
    const queued = (await call(`/api/online/decisions?rule=${rule!.id}&status=queued&limit=500`)).body!.decisions as Array<{ trace_id: string, span_id: string }>
    expect(queued.map(d => d.trace_id).sort()).toEqual(ids.slice(0, 25).filter(id => sampled(id.traceId, id.spanId, 0.5)).map(id => id.traceId).sort())
    await store.online.updateDecision({ ruleId: rule!.id as string, traceId: queued[0]!.trace_id, spanId: queued[0]!.span_id }, { status: 'scored', score: 0.9, verdict: 'pass', runId: 'run-1' })
    expect((await call(`/api/online/scores?rule=${rule!.id}`)).body).toMatchObject({ decisions: [{ status: 'scored', score: 0.9, verdict: 'pass', run_id: 'run-1' }], next: null })
    const events = (await call(`/api/online/events?rule=${rule!.id}`)).body as any
    expect(events.resourceLogs[0].scopeLogs[0].logRecords).toEqual([{
      timeUnixNano: expect.stringMatching(/^\d+000000$/), eventName: 'gen_ai.evaluation.result', traceId: queued[0]!.trace_id, spanId: queued[0]!.span_id,
      attributes: [
        { key: 'gen_ai.evaluation.name', value: { stringValue: 'feed' } }, { key: 'gen_ai.evaluation.score.value', value: { doubleValue: 0.9 } },
        { key: 'gen_ai.evaluation.score.label', value: { stringValue: 'pass' } },
      ],
    }])
    expect(problems(await call('/api/online/decisions?status=lost&after=x'))).toEqual([
      { path: 'status', message: 'must be one of filtered, sampled_out, queued, scored, failed, over_budget' },
      { path: 'after', message: 'is not a page cursor (give the `next` of the page before)' },
    ])
  })
})

function exportOf(service: string, ids: Array<{ traceId: string, spanId: string }>) {
  const text = (key: string, value: string) => ({ key, value: { stringValue: value } })
  return {
    resourceSpans: [{
      resource: { attributes: [text('service.name', service)] },
      scopeSpans: [{ spans: ids.map(id => ({ ...id, name: 'chat', attributes: [text('input.value', 'question'), text('output.value', 'answer')] })) }],
    }],
  }
}
