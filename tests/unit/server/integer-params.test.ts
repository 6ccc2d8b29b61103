import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createJudgeflow, loadConfig, MAX_STORED_INTEGER, type Judgeflow } from '../../../core'
import { wholeNumber } from '../../../server/utils/parameters'
import { apiRoutes, type ApiAnswer, type ApiRoute } from '../../support/api-routes'
import { storeFactories, stopStores } from '../../support/stores'

const served = vi.hoisted(() => ({ app: undefined as Judgeflow | undefined }))
vi.mock('../../../server/utils/context', () => ({ useJudgeflow: () => served.app }))

describe('wholeNumber: an integer parameter of a path, a query or a header', () => {
  const parse = (value: unknown, range?: { min?: number, max?: number }) => z.object({ n: wholeNumber(range) }).safeParse({ n: value })
  const refusal = (value: unknown, range?: { min?: number, max?: number }) => parse(value, range).error?.issues.map(i => `${i.path.join('.')}: ${i.message}`)

  it('reads digits from min to max, by default up to the largest integer a store keeps', () => {
    expect(MAX_STORED_INTEGER).toBe(2 ** 31 - 1)
    expect(parse('1').data).toEqual({ n: 1 })
    expect(parse('2147483647').data).toEqual({ n: 2147483647 })
    expect(parse('0', { min: 0 }).data).toEqual({ n: 0 })
    expect(parse('9007199254740991', { max: Number.MAX_SAFE_INTEGER }).data).toEqual({ n: Number.MAX_SAFE_INTEGER })
  })

  it('refuses a number past the range, or anything that is not digits, with a sentence naming the range and what was given', () => {
    expect(refusal('2147483648')).toEqual(['n: must be a whole number from 1 to 2147483647, not 2147483648'])
    expect(refusal('99999999999999999999')).toEqual(['n: must be a whole number from 1 to 2147483647, not 99999999999999999999'])
    expect(refusal('501', { max: 500 })).toEqual(['n: must be a whole number from 1 to 500, not 501'])
    for (const given of ['0', '-1', '1.5', '1e3', 'abc', '0x10']) expect(refusal(given)).toEqual([`n: must be a whole number from 1 to 2147483647, not ${given}`])
    expect(refusal('')).toEqual(['n: must be a whole number from 1 to 2147483647, not ""'])
    expect(refusal('1 OR 1=1')).toEqual(['n: must be a whole number from 1 to 2147483647, not "1 OR 1=1"'])
    expect(refusal(['1', '2'])).toEqual(['n: must be a whole number from 1 to 2147483647, given once (not 2 times)'])
    expect(refusal(undefined)).toEqual(['n: must be a whole number from 1 to 2147483647, and is missing'])
    expect(z.object({ n: wholeNumber().optional() }).parse({})).toEqual({})
  })
})

/** Every route with an integer parameter in its path, query string or headers, and one with an integer in its body. */
const routes: ApiRoute[] = [
  ['get', '/api/workflows/:id', 'workflows/[id].get.ts'],
  ['get', '/api/workflows/:id/runs', 'workflows/[id]/runs.get.ts'],
  ['get', '/api/datasets/:id', 'datasets/[id].get.ts'],
  ['get', '/api/datasets/:id/export', 'datasets/[id]/export.get.ts'],
  ['get', '/api/runs/:id/events', 'runs/[id]/events.get.ts'],
  ['get', '/api/runs/:id/steps/:node/:attempt/:field', 'runs/[id]/steps/[node]/[attempt]/[field].get.ts'],
  ['post', '/api/experiments/:id/rounds/:number/cancel', 'experiments/[id]/rounds/[number]/cancel.post.ts'],
  ['get', '/api/experiments/:id/rounds/:number/events', 'experiments/[id]/rounds/[number]/events.get.ts'],
  ['put', '/api/experiments/:id/rounds/:number/judgments', 'experiments/[id]/rounds/[number]/judgments.put.ts'],
  ['post', '/api/dataset-runs', 'dataset-runs/index.post.ts'],
]
let call: Awaited<ReturnType<typeof apiRoutes>>
beforeAll(async () => {
  call = await apiRoutes(routes)
})

const refused = (answer: ApiAnswer) => ({ status: answer.status, message: answer.body?.message })
const tooLarge = (name: string, max = MAX_STORED_INTEGER, given = String(max + 1)) => `${name}: must be a whole number from 1 to ${max}, not ${given}`

afterEach(async () => {
  await served.app?.close(0)
  served.app = undefined
})
afterAll(stopStores)

describe.each(storeFactories)('integer parameters past what the store keeps ($name): a 400 naming the parameter, never a failed query', (stores) => {
  async function open() {
    served.app = createJudgeflow(loadConfig({}), { store: await stores.open(), retention: false })
    return served.app
  }

  it('refuses ?version= of a workflow and of a dataset past 2147483647, and still finds a version that exists', async () => {
    const app = await open()
    const workflow = await app.store.workflows.create({ name: 'w', nodes: [{ id: 'in', type: 'input' }], edges: [] })
    const dataset = await app.store.datasets.create('cases', [{ id: 'c1', input: { q: 'hi' } }])
    for (const path of [`/api/workflows/${workflow.id}`, `/api/datasets/${dataset.id}`, `/api/datasets/${dataset.id}/export`]) {
      expect(refused(await call(`${path}?version=2147483648`))).toEqual({ status: 400, message: `Invalid query: ${tooLarge('version')}` })
      expect(refused(await call(`${path}?version=abc`))).toEqual({ status: 400, message: 'Invalid query: version: must be a whole number from 1 to 2147483647, not abc' })
      expect((await call(`${path}?version=2147483647`)).status).toBe(404)
      expect((await call(`${path}?version=1`)).status).toBe(200)
    }
  })

  it('refuses a step attempt, a round number, a page of runs and an event id out of range', async () => {
    const app = await open()
    const workflow = await app.store.workflows.create({ name: 'w', nodes: [{ id: 'in', type: 'input' }], edges: [] })
    expect(refused(await call('/api/runs/r1/steps/in/2147483648/output'))).toEqual({ status: 400, message: `Invalid path: ${tooLarge('attempt')}` })
    expect((await call('/api/runs/r1/steps/in/2147483647/output')).status).toBe(404)
    const judgments = { method: 'PUT', body: JSON.stringify({ judgments: [] }), headers: { 'content-type': 'application/json' } }
    for (const [path, init] of [['/api/experiments/e1/rounds/2147483648/cancel', { method: 'POST' }], ['/api/experiments/e1/rounds/2147483648/events', {}], ['/api/experiments/e1/rounds/2147483648/judgments', judgments]] as const) {
      expect(refused(await call(path, init))).toEqual({ status: 400, message: `Invalid path: ${tooLarge('number')}` })
      expect(refused(await call(path.replace('2147483648', 'abc'), init))).toEqual({ status: 400, message: 'Invalid path: number: must be a whole number from 1 to 2147483647, not abc' })
    }
    expect((await call('/api/experiments/e1/rounds/2147483647/cancel', { method: 'POST' })).status).toBe(404)
    expect(refused(await call(`/api/workflows/${workflow.id}/runs?limit=501`))).toEqual({ status: 400, message: 'Invalid query: limit: must be a whole number from 1 to 500, not 501' })
    expect(refused(await call(`/api/workflows/${workflow.id}/runs?before=1e30`))).toEqual({ status: 400, message: `Invalid query: before: must be a whole number from 1 to ${Number.MAX_SAFE_INTEGER}, not 1e30` })
    expect(await call(`/api/workflows/${workflow.id}/runs?limit=500&before=${Number.MAX_SAFE_INTEGER}`)).toEqual({ status: 200, body: [] })
    expect(refused(await call('/api/runs/r1/events?after=1e30'))).toEqual({ status: 400, message: `Invalid query: after: must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}, not 1e30` })
    expect(refused(await call('/api/runs/r1/events', { headers: { 'last-event-id': 'x' } }))).toEqual({ status: 400, message: `Invalid header: last-event-id: must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}, not x` })
    expect((await call('/api/runs/r1/events?after=0')).status).toBe(404)
  })

  it('refuses a dataset run of a version past 2147483647, and names a version that does not exist', async () => {
    const app = await open()
    const dataset = await app.store.datasets.create('cases', [{ id: 'c1', input: { q: 'hi' } }])
    const start = (version: number) => call('/api/dataset-runs', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ dataset: dataset.id, version, target: { evaluator: { evaluation_type: 'scorers', scorers: [{ type: 'json-valid' }] } } }),
    })
    expect(refused(await start(2147483648))).toEqual({ status: 400, message: 'Invalid body: version: must be a whole number from 1 to 2147483647' })
    expect(refused(await start(2147483647))).toEqual({ status: 400, message: 'version: dataset "cases" has no version 2147483647 (its current is 1)' })
  })
})
