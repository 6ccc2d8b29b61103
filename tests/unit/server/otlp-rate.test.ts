import { beforeAll, describe, expect, it, vi } from 'vitest'
import { loadConfig, type Store } from '../../../core'
import { createSqliteStore, openDatabase } from '../../../db'
import { apiRoutes, type ApiAnswer } from '../../support/api-routes'

/** The spans a client may send a second (JUDGEFLOW_OTLP_SPANS_PER_SECOND), counted per client address. */
const served = vi.hoisted(() => ({ config: undefined as ReturnType<typeof loadConfig> | undefined, app: undefined as { store: Store } | undefined }))
vi.mock('../../../server/utils/config', () => ({ judgeflowConfig: () => served.config }))
vi.mock('../../../server/utils/context', () => ({ useJudgeflow: () => served.app }))

let call: Awaited<ReturnType<typeof apiRoutes>>
let store: Store

beforeAll(async () => {
  served.config = loadConfig({ JUDGEFLOW_OTLP_SPANS_PER_SECOND: '1', JUDGEFLOW_OTLP_MAX_SPANS: '40' })
  store = createSqliteStore(openDatabase(':memory:'))
  served.app = { store }
  await store.online.createRule({ name: 'all', enabled: true, evaluator: { config: {} }, filter: {}, sampleRate: 1, maxPerMinute: null, maxCostUsdPerDay: null })
  call = await apiRoutes([['post', '/v1/traces', '../routes/v1/traces.post.ts']])
})

let next = 1
/** An export request of `count` GenAI spans, each new. */
function spans(count: number): string {
  const span = () => ({
    traceId: (next++).toString(16).padStart(32, '0'), spanId: '1'.padStart(16, '0'), name: 'chat',
    attributes: [{ key: 'input.value', value: { stringValue: 'hi' } }],
  })
  return JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: Array.from({ length: count }, span) }] }] })
}

const send = (count: number, clientAddress: string): Promise<ApiAnswer> =>
  call('/v1/traces', { method: 'POST', headers: { 'content-type': 'application/json' }, body: spans(count) }, { clientAddress })

describe('the span rate per client', () => {
  it('takes a full request at once, then refuses a request it has no room for with 429 and Retry-After, storing none of it', async () => {
    expect((await send(30, '10.0.0.1')).status).toBe(200)
    const refused = await send(30, '10.0.0.1')
    expect(refused).toMatchObject({ status: 429, body: { message: 'Too many spans from your address: at most 1 a second (JUDGEFLOW_OTLP_SPANS_PER_SECOND); send again in 20 s.' } })
    expect(refused.headers.get('retry-after')).toBe('20')
    expect(await store.online.decisions({ limit: 100 })).toHaveLength(30)
    // Another address has its own.
    expect((await send(40, '10.0.0.2')).status).toBe(200)
    // An address with nothing left is refused before its body is read.
    const empty = await send(1, '10.0.0.2')
    expect(empty).toMatchObject({ status: 429, body: { message: expect.stringContaining('send again in 1 s') } })
    expect(empty.headers.get('retry-after')).toBe('1')
    expect(await store.online.decisions({ limit: 100 })).toHaveLength(70)
  })
})
