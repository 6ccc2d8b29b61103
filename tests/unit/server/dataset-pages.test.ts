import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createJudgeflow, loadConfig, type Judgeflow } from '../../../core'
import { apiRoutes, type ApiRoute } from '../../support/api-routes'
import { storeFactories, stopStores } from '../../support/stores'

const served = vi.hoisted(() => ({ app: undefined as Judgeflow | undefined }))
vi.mock('../../../server/utils/context', () => ({ useJudgeflow: () => served.app }))

const routes: ApiRoute[] = [
  ['get', '/api/datasets/:id', 'datasets/[id].get.ts'],
  ['post', '/api/datasets/import-promptfoo', 'datasets/import-promptfoo.post.ts'],
]
let call: Awaited<ReturnType<typeof apiRoutes>>
beforeAll(async () => {
  call = await apiRoutes(routes)
})
afterEach(async () => {
  await served.app?.close(0)
  served.app = undefined
})
afterAll(stopStores)

const cases = Array.from({ length: 2_500 }, (_, i) => ({ id: `q${i}`, input: { question: `question ${i}` } }))

describe.each(storeFactories)('GET /api/datasets/:id answers a page of the cases, never all of them ($name)', (stores) => {
  async function open() {
    served.app = createJudgeflow(loadConfig({}), { store: await stores.open(), retention: false })
    return served.app
  }

  it('answers the first 100 cases with the count, the next page\'s link and the export\'s, and pages on with ?offset= and ?limit=', async () => {
    const app = await open()
    const dataset = await app.store.datasets.create('large', cases)
    const first = await call(`/api/datasets/${dataset.id}`)
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({
      id: dataset.id, name: 'large', current_version: 1, case_count: 2_500, version: 1,
      page: { offset: 0, limit: 100, max_limit: 1_000, total: 2_500, next: `/api/datasets/${dataset.id}?version=1&offset=100&limit=100` },
      export: { jsonl: `/api/datasets/${dataset.id}/export?version=1&format=jsonl`, csv: `/api/datasets/${dataset.id}/export?version=1&format=csv` },
    })
    expect(first.body!.cases).toEqual(cases.slice(0, 100))
    const next = await call((first.body!.page as { next: string }).next)
    expect(next.body!.cases).toEqual(cases.slice(100, 200))
    const last = await call(`/api/datasets/${dataset.id}?offset=2000&limit=1000`)
    expect(last.body).toMatchObject({ page: { offset: 2_000, limit: 1_000, total: 2_500, next: null } })
    expect(last.body!.cases).toEqual(cases.slice(2_000))
    expect((await call(`/api/datasets/${dataset.id}?offset=5000`)).body).toMatchObject({ cases: [], page: { offset: 5_000, total: 2_500, next: null } })
  })

  it('pages an earlier version, and refuses a limit past 1,000 or an offset that is not a whole number with a sentence', async () => {
    const app = await open()
    const dataset = await app.store.datasets.create('versions', cases)
    await app.store.datasets.update(dataset.id, { cases: cases.slice(0, 2) })
    expect((await call(`/api/datasets/${dataset.id}`)).body).toMatchObject({ version: 2, case_count: 2, page: { total: 2, next: null } })
    const earlier = await call(`/api/datasets/${dataset.id}?version=1&limit=1000`)
    expect(earlier.body).toMatchObject({ version: 1, current_version: 2, page: { total: 2_500, next: `/api/datasets/${dataset.id}?version=1&offset=1000&limit=1000` } })
    expect(earlier.body!.cases).toHaveLength(1_000)
    expect((await call(`/api/datasets/${dataset.id}?limit=1001`)).body).toMatchObject({ statusCode: 400, message: 'Invalid query: limit: must be a whole number from 1 to 1000, not 1001' })
    expect((await call(`/api/datasets/${dataset.id}?limit=0`)).body).toMatchObject({ statusCode: 400, message: 'Invalid query: limit: must be a whole number from 1 to 1000, not 0' })
    expect((await call(`/api/datasets/${dataset.id}?offset=-1`)).body).toMatchObject({ statusCode: 400, message: 'Invalid query: offset: must be a whole number from 0 to 2147483647, not -1' })
    expect((await call(`/api/datasets/${dataset.id}?version=3`)).status).toBe(404)
    expect((await call('/api/datasets/nope')).status).toBe(404)
  })

  it('refuses a promptfoo import that would make more cases than a dataset holds, and stores nothing', async () => {
    const app = await open()
    const config = JSON.stringify({
      prompts: Array.from({ length: 10 }, (_, i) => `Prompt ${i}: {{topic}}`),
      providers: Array.from({ length: 10 }, (_, i) => `openai:gpt-4o-mini-${i}`),
      tests: [{ vars: { topic: Array.from({ length: 3_000 }, (_, i) => `topic ${i}`) }, assert: [{ type: 'contains', value: '{{topic}}' }] }],
    })
    const answer = await call('/api/datasets/import-promptfoo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'grid', config }) })
    expect(answer).toMatchObject({
      status: 400,
      body: { message: 'the promptfoo config would make 300,000 cases (1 test × 3,000 items of vars.topic × 100 cells of 10 prompts and 10 providers), more than the 100,000 cases a dataset may hold: split it into configs of fewer tests, list items, prompts or providers.' },
    })
    expect(await app.store.datasets.list()).toEqual([])
  })
})
