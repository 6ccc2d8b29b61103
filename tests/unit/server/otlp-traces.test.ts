import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { context, SpanKind, trace, type Tracer } from '@opentelemetry/api'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { toNodeListener } from 'h3'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { loadConfig, type Store } from '../../../core'
import type { NewOnlineRule, OnlineDecisionView } from '../../../core/online-rows'
import { createSqliteStore, openDatabase } from '../../../db'
import { sampled } from '../../../engine/online/selection'
import { apiApp } from '../../support/api-routes'

/**
 * POST /v1/traces as the built server serves it (the access and body-limit middleware, the body
 * deadline, the errors plugin) on node:http on loopback, fed by OpenTelemetry's own SDK and OTLP
 * exporter, over a SQLite store.
 */
const served = vi.hoisted(() => ({ config: undefined as ReturnType<typeof loadConfig> | undefined, app: undefined as { store: Store } | undefined }))
vi.mock('../../../server/utils/config', () => ({ judgeflowConfig: () => served.config }))
vi.mock('../../../server/utils/context', () => ({ useJudgeflow: () => served.app }))

const TOKEN = 'an-otlp-test-token-0123456789abcdef'
const MAX_BODY_BYTES = 256 * 1024
const baseConfig = () => loadConfig({ JUDGEFLOW_OTLP_MAX_BODY_BYTES: String(MAX_BODY_BYTES), JUDGEFLOW_OTLP_MAX_SPANS: '300' })
let server: Server
let url = ''
let store: Store

beforeAll(async () => {
  const app = await apiApp([['post', '/v1/traces', '../routes/v1/traces.post.ts']], { middleware: ['00-access.ts', 'body-limit.ts'], plugins: ['body-deadline.ts'] })
  server = createServer(toNodeListener(app))
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise(resolve => server.close(resolve))
})
beforeEach(() => {
  served.config = baseConfig()
  store = createSqliteStore(openDatabase(':memory:'))
  served.app = { store }
})

const rule = (over: Partial<NewOnlineRule>): NewOnlineRule => ({
  name: 'rule', enabled: true, evaluator: { config: { type: 'criteria' } }, filter: {}, sampleRate: 1, maxPerMinute: null, maxCostUsdPerDay: null, ...over,
})

/** Spans made with the OpenTelemetry SDK and sent by its OTLP/HTTP exporter; resolves once every export was answered. */
async function send(make: (tracer: Tracer) => void, options: { gzip?: boolean, headers?: Record<string, string> } = {}) {
  const exporter = new OTLPTraceExporter({ url, headers: options.headers, ...(options.gzip ? { compression: CompressionAlgorithm.GZIP } : {}) })
  const results: number[] = []
  const export_ = exporter.export.bind(exporter)
  exporter.export = (spans, done) => export_(spans, (result) => {
    results.push(result.code)
    done(result)
  })
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'support-bot' }),
    spanProcessors: [new BatchSpanProcessor(exporter, { maxExportBatchSize: 100, maxQueueSize: 2_000 })],
  })
  make(provider.getTracer('otlp-route-test'))
  // A refused export fails the flush too: what the exporter was answered is in `results`.
  await provider.forceFlush().catch(() => {})
  await provider.shutdown()
  return results
}

function chat(tracer: Tracer, n: number, model = 'gpt-4o') {
  const span = tracer.startSpan(`chat ${model}`, {
    kind: SpanKind.CLIENT,
    attributes: {
      'gen_ai.operation.name': 'chat', 'gen_ai.request.model': model,
      'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: `question ${n}` }] }]),
      'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: `answer ${n}` }] }]),
      'gen_ai.usage.input_tokens': 12,
    },
  })
  const tool = tracer.startSpan('execute_tool search', { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'search' } }, trace.setSpan(context.active(), span))
  tool.end()
  span.end()
}

const byRule = (all: OnlineDecisionView[], ruleId: string) => all.filter(d => d.ruleId === ruleId)
const key = (d: { traceId: string, spanId: string }) => `${d.traceId}:${d.spanId}`

describe('POST /v1/traces', () => {
  it('stores the GenAI spans OpenTelemetry\'s exporter sends, each seen by every enabled rule: filter first, then a sample the same for rules of the same rate', async () => {
    const byModel = await store.online.createRule(rule({ name: 'gpt-4o only', filter: { model: 'gpt-4o' } }))
    const half = await store.online.createRule(rule({ name: 'half', sampleRate: 0.5 }))
    const otherHalf = await store.online.createRule(rule({ name: 'another half', sampleRate: 0.5, evaluator: { workflow_id: 'w', step_id: 'judge' } }))
    const paused = await store.online.createRule(rule({ name: 'paused', enabled: false }))
    const results = await send((tracer) => {
      for (let n = 0; n < 60; n++) chat(tracer, n, n % 3 ? 'gpt-4o' : 'claude-sonnet')
      tracer.startSpan('GET /health').end()
    })
    expect(results.every(code => code === 0)).toBe(true)
    // Acknowledged means committed: the decisions are there as soon as the exporter has its answer.
    const all = await store.online.decisions({ limit: 1_000 })
    expect(byRule(all, paused.id)).toEqual([])
    const models = byRule(all, byModel.id)
    expect(models).toHaveLength(60)
    expect(models.filter(d => d.status === 'queued')).toHaveLength(40)
    expect(models.find(d => d.status === 'filtered')).toMatchObject({ reason: 'the model is "claude-sonnet", not "gpt-4o"', span: { model: 'claude-sonnet' } })
    const kept = (id: string) => byRule(all, id).filter(d => d.status === 'queued').map(key).sort()
    expect(kept(half.id)).toEqual(kept(otherHalf.id))
    for (const d of byRule(all, half.id)) expect(d.status).toBe(sampled(d.traceId, d.spanId, 0.5) ? 'queued' : 'sampled_out')
    expect(byRule(all, half.id).find(d => d.status === 'sampled_out')!.reason).toBe('not in the 50% sample')
    // The tool spans are kept for the trace (no decisions: nothing to judge); the HTTP span is not a GenAI span.
    const [one] = models
    expect(await store.online.getSpan(one!.traceId, one!.spanId)).toMatchObject({ serviceName: 'support-bot', operation: 'chat', usage: { input_tokens: 12, output_tokens: null } })
    expect(all).toHaveLength(180)
  })

  it('takes gzip, and stores a span sent again once, with its first decisions', async () => {
    const { id } = await store.online.createRule(rule({ name: 'all' }))
    expect(await send(tracer => chat(tracer, 1), { gzip: true })).toEqual([0])
    const [first] = await store.online.decisions({ limit: 10 })
    expect(first).toMatchObject({ ruleId: id, status: 'queued', span: { inputText: 'question 1', outputText: 'answer 1' } })
    const again = await post(JSON.stringify(exportOf([{ traceId: first!.traceId, spanId: first!.spanId }])))
    expect(again.status).toBe(200)
    expect(await store.online.decisions({ limit: 10 })).toEqual([first])
  })

  it('answers partialSuccess naming the spans rejected and why, and keeps the others', async () => {
    await store.online.createRule(rule({}))
    const answer = await post(JSON.stringify(exportOf([{ traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8) }, { traceId: 'nothex', spanId: 'cd'.repeat(8) }, { traceId: '0'.repeat(32), spanId: 'cd'.repeat(8) }])))
    expect(answer).toMatchObject({ status: 200, body: { partialSuccess: { rejectedSpans: '2', errorMessage: 'Rejected: traceId is not 32 hex digits; traceId is all zeros (an invalid id).' } } })
    expect((await store.online.decisions({ limit: 10 })).map(d => d.traceId)).toEqual(['ab'.repeat(16)])
    expect(await post(JSON.stringify(exportOf([{ traceId: 'ef'.repeat(16), spanId: 'cd'.repeat(8) }])))).toMatchObject({ status: 200, body: {} })
  })

  it('refuses protobuf and other types with 415 saying to send JSON, and a body that is not OTLP JSON with 400', async () => {
    const protobuf = await post('\x0a\x00', { 'content-type': 'application/x-protobuf' })
    expect(protobuf.status).toBe(415)
    expect(protobuf.body.message).toBe('OTLP in protobuf is not taken here: judgeflow takes OTLP/HTTP in JSON (Content-Type: application/json). '
      + 'Set the exporter\'s protocol to http/json (OTEL_EXPORTER_OTLP_PROTOCOL=http/json).')
    expect((await post('{}', { 'content-encoding': 'br' })).status).toBe(415)
    expect(await post('{"resourceSpans": 3}')).toMatchObject({ status: 400, body: { message: 'The body is not an OTLP export request: "resourceSpans" must be a list.' } })
    expect(await post('{"resourceSpans": [')).toMatchObject({ status: 400 })
    expect(await post(Buffer.from('not gzip'), { 'content-encoding': 'gzip' })).toMatchObject({ status: 400, body: { message: 'The body is not valid gzip (Content-Encoding: gzip).' } })
  })

  it('refuses a body over JUDGEFLOW_OTLP_MAX_BODY_BYTES with 413, as sent or once gunzipped', async () => {
    const large = JSON.stringify({ resourceSpans: [], padding: 'x'.repeat(MAX_BODY_BYTES) })
    expect(await post(large)).toMatchObject({ status: 413, body: { message: `The request body is larger than ${MAX_BODY_BYTES} bytes (JUDGEFLOW_OTLP_MAX_BODY_BYTES).` } })
    const bomb = gzipSync(large)
    expect(bomb.length).toBeLessThan(MAX_BODY_BYTES / 100)
    expect(await post(bomb, { 'content-encoding': 'gzip' }))
      .toMatchObject({ status: 413, body: { message: `The request body is larger than ${MAX_BODY_BYTES} bytes once gunzipped (JUDGEFLOW_OTLP_MAX_BODY_BYTES).` } })
  })

  it('needs the API\'s token when one is set: 401 without it, the spans taken with it', async () => {
    served.config = loadConfig({ JUDGEFLOW_TOKEN: TOKEN, JUDGEFLOW_OTLP_MAX_SPANS: '300' })
    await store.online.createRule(rule({}))
    expect(await send(tracer => chat(tracer, 1))).toEqual([1])
    expect(await post(JSON.stringify(exportOf([{ traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8) }])))).toMatchObject({ status: 401 })
    expect(await store.online.decisions({ limit: 10 })).toEqual([])
    expect(await send(tracer => chat(tracer, 2), { headers: { authorization: `Bearer ${TOKEN}` } })).toEqual([0])
    expect(await store.online.decisions({ limit: 10 })).toHaveLength(1)
  })
})

/** An export request of GenAI chat spans with these ids, as OTLP/JSON. */
function exportOf(ids: Array<{ traceId: string, spanId: string }>) {
  const text = (key: string, value: string) => ({ key, value: { stringValue: value } })
  return {
    resourceSpans: [{
      resource: { attributes: [text('service.name', 'raw')] },
      scopeSpans: [{
        scope: { name: 'raw' },
        spans: ids.map(({ traceId, spanId }) => ({
          traceId, spanId, name: 'chat', kind: 3, startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000000500000000',
          attributes: [text('gen_ai.operation.name', 'chat'), text('input.value', 'hi'), text('output.value', 'hello')],
        })),
      }],
    }],
  }
}

async function post(body: string | Buffer, headers: Record<string, string> = {}) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : new Uint8Array(body) })
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null }
}
