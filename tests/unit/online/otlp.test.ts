import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gunzipSync } from 'node:zlib'
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { genAiCall, isGenAiSpan } from '../../../engine/online/genai'
import { readOtlpTraces, type OtlpSpan } from '../../../engine/online/otlp'
import { filterRefusal, sampled } from '../../../engine/online/selection'
import { traceOfCall } from '../../../engine/online/trace-of'
import { parseTrace } from '../../../engine/trace/schema'

/** What OpenTelemetry's own OTLP/HTTP exporter sends, caught on loopback. */
let server: Server
let url = ''
const bodies: unknown[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks)
      bodies.push(JSON.parse((req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString()))
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>(done => server.listen(0, '127.0.0.1', done))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`
})
afterAll(() => new Promise<void>(done => server.close(() => done())))

/** Spans made with the OpenTelemetry SDK, exported as OTLP/JSON, read back by judgeflow. */
async function exported(make: (tracer: ReturnType<BasicTracerProvider['getTracer']>) => void): Promise<OtlpSpan[]> {
  bodies.length = 0
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'support-bot' }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }), { maxExportBatchSize: 1000, maxQueueSize: 2000 })],
  })
  make(provider.getTracer('judgeflow-test', '1.0.0'))
  await provider.forceFlush()
  await provider.shutdown()
  const read = bodies.map(body => readOtlpTraces(body))
  expect(read.every(r => r.rejected.count === 0)).toBe(true)
  return read.flatMap(r => r.spans)
}

const inputMessages = [
  { role: 'system', parts: [{ type: 'text', content: 'Be brief.' }] },
  { role: 'user', parts: [{ type: 'text', content: 'What is the refund window?' }] },
  { role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'search_policy', arguments: { q: 'refund' } }] },
  { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c1', response: '30 days' }] },
]
const outputMessages = [{ role: 'assistant', parts: [{ type: 'text', content: 'You can ask for a refund within 30 days.' }], finish_reason: 'stop' }]

describe('OTLP/JSON spans from OpenTelemetry\'s exporter', () => {
  it('reads ids, times, status, resource and a GenAI chat span\'s messages, models and usage', async () => {
    const spans = await exported((tracer) => {
      const span = tracer.startSpan('chat gpt-4o-mini', {
        kind: SpanKind.CLIENT,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'gpt-4o-mini',
          'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
          'gen_ai.input.messages': JSON.stringify(inputMessages),
          'gen_ai.output.messages': JSON.stringify(outputMessages),
          'gen_ai.system_instructions': JSON.stringify([{ type: 'text', content: 'You answer billing questions.' }]),
          'gen_ai.usage.input_tokens': 52,
          'gen_ai.usage.output_tokens': 11,
        },
      })
      span.end()
    })
    expect(spans).toHaveLength(1)
    const span = spans[0]!
    expect(span.trace_id).toMatch(/^[0-9a-f]{32}$/)
    expect(span.span_id).toMatch(/^[0-9a-f]{16}$/)
    expect(span.parent_span_id).toBeNull()
    expect(span.kind).toBe(3)
    expect(BigInt(span.end_time_unix_nano)).toBeGreaterThanOrEqual(BigInt(span.start_time_unix_nano))
    expect(span.resource['service.name']).toBe('support-bot')
    expect(span.scope).toEqual({ name: 'judgeflow-test', version: '1.0.0' })
    expect(isGenAiSpan(span)).toBe(true)
    const call = genAiCall(span)
    expect(call).toMatchObject({
      operation: 'chat', provider: 'openai', request_model: 'gpt-4o-mini', response_model: 'gpt-4o-mini-2024-07-18',
      input_text: 'What is the refund window?', output_text: 'You can ask for a refund within 30 days.',
      system_instructions: 'You answer billing questions.', usage: { input_tokens: 52, output_tokens: 11 }, source: 'gen_ai.messages',
    })
    expect(call.input_messages.map(m => m.role)).toEqual(['system', 'user', 'assistant', 'tool'])
  })

  it('turns a call and its execute_tool child spans into a trace the trace evaluation type accepts', async () => {
    const spans = await exported((tracer) => {
      const root = tracer.startSpan('invoke_agent helper', { attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Compare plan A and B' }] }]),
        'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'Plan B is cheaper.' }] }]),
      } })
      const inside = trace.setSpan(context.active(), root)
      const failing = tracer.startSpan('execute_tool prices', { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'prices', 'gen_ai.tool.call.arguments': '{"plan":"A"}' } }, inside)
      failing.setStatus({ code: SpanStatusCode.ERROR, message: 'timeout' })
      failing.end()
      const ok = tracer.startSpan('execute_tool prices', { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'prices', 'gen_ai.tool.call.arguments': '{"plan":"B"}', 'gen_ai.tool.call.result': '{"price":9}' } }, inside)
      ok.end()
      root.end()
    })
    const root = spans.find(s => s.parent_span_id === null)!
    const traced = traceOfCall(root, spans, { domain: 'finance' })
    expect(() => parseTrace(traced)).not.toThrow()
    expect(traced.task.objective).toBe('Compare plan A and B')
    expect(traced.metadata).toEqual({ task_domain: 'finance', success: true })
    expect(traced.steps.map(s => s.type)).toEqual(['thought', 'tool_call', 'error_recovery', 'tool_call', 'observation'])
    expect(traced.steps[1]).toMatchObject({ tool: { name: 'prices' }, input: { plan: 'A' } })
    expect(traced.steps[4]).toMatchObject({ output: { price: 9 } })
    expect(traced.outcome).toEqual({ confidence: 1, result_summary: 'Plan B is cheaper.' })
  })

  it('reads OpenInference\'s input.value / output.value when the GenAI messages are absent, and says so', async () => {
    const [span] = await exported((tracer) => {
      tracer.startSpan('llm', { attributes: { 'input.value': 'Hi there', 'output.value': 'Hello!', 'llm.model_name': 'claude' } }).end()
    })
    expect(isGenAiSpan(span!)).toBe(true)
    expect(genAiCall(span!)).toMatchObject({ input_text: 'Hi there', output_text: 'Hello!', source: 'openinference', operation: null })
  })

  it('samples by the span\'s identity: the same span is decided alike, and a rate keeps about that share', async () => {
    const spans = await exported((tracer) => {
      for (let i = 0; i < 400; i++) tracer.startSpan(`chat ${i}`, { attributes: { 'gen_ai.operation.name': 'chat' } }).end()
    })
    const kept = (rate: number) => spans.filter(s => sampled(s.trace_id, s.span_id, rate))
    expect(kept(0)).toHaveLength(0)
    expect(kept(1)).toHaveLength(400)
    const quarter = kept(0.25)
    expect(quarter.length).toBeGreaterThan(60)
    expect(quarter.length).toBeLessThan(140)
    // Two rules with the same rate score the same spans; a higher rate keeps a superset.
    expect(kept(0.25).map(s => s.span_id)).toEqual(quarter.map(s => s.span_id))
    const half = new Set(kept(0.5).map(s => s.span_id))
    expect(quarter.every(s => half.has(s.span_id))).toBe(true)
  })
})

const span = (extra: Record<string, unknown> = {}) => ({
  traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174', name: 'chat', kind: 3,
  startTimeUnixNano: '1544712660000000000', endTimeUnixNano: '1544712661000000000',
  attributes: [{ key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o' } }, { key: 'n', value: { intValue: '9007199254740993' } }],
  ...extra,
})
const request = (spans: unknown[]) => ({ resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'api' } }] }, scopeSpans: [{ scope: { name: 's' }, spans }] }] })

describe('the OTLP/JSON reader\'s rules', () => {
  it('keeps a 64-bit integer past 2^53 as its decimal text, and reads protobuf\'s snake_case names too', () => {
    const read = readOtlpTraces({ resource_spans: [{ scope_spans: [{ spans: [{ ...span(), trace_id: span().traceId, traceId: undefined }] }] }] })
    expect(read.spans[0]!.attributes.n).toBe('9007199254740993')
    expect(read.spans[0]!.trace_id).toBe('5b8efff798038103d269b633813fc60c')
  })

  it('rejects a span with a bad id, an all-zero id or too long an attribute alone, naming why, and keeps the others', () => {
    const read = readOtlpTraces(request([
      span(),
      span({ traceId: 'xyz' }),
      span({ spanId: '0000000000000000' }),
      span({ spanId: 'aaaaaaaaaaaaaaaa', attributes: [{ key: 'gen_ai.input.messages', value: { stringValue: 'x'.repeat(101) } }] }),
    ]), { maxSpans: 10, maxAttributeChars: 100, maxAttributes: 10 })
    expect(read.spans.map(s => s.span_id)).toEqual(['eee19b7ec3c1b174'])
    expect(read.rejected.count).toBe(3)
    expect(read.rejected.reasons).toEqual([
      'traceId is not 32 hex digits',
      'spanId is all zeros (an invalid id)',
      'span aaaaaaaaaaaaaaaa: attribute "gen_ai.input.messages" holds more than 100 characters',
    ])
  })

  it('keeps at most maxSpans spans of one request and counts the rest as rejected', () => {
    const many = Array.from({ length: 5 }, (_, i) => span({ spanId: `${i + 1}`.padStart(16, 'a') }))
    const read = readOtlpTraces(request(many), { maxSpans: 3, maxAttributeChars: 1000, maxAttributes: 10 })
    expect(read.spans).toHaveLength(3)
    expect(read.rejected).toEqual({ count: 2, reasons: ['more than 3 spans in one request (2 spans)'] })
  })

  it('refuses a body that is not an ExportTraceServiceRequest', () => {
    expect(() => readOtlpTraces([])).toThrow(/ExportTraceServiceRequest/)
    expect(() => readOtlpTraces({ resourceSpans: 3 })).toThrow(/must be a list/)
  })

  it('says which filter field turned a span away', () => {
    const [one] = readOtlpTraces(request([span()])).spans
    const call = genAiCall(one!)
    expect(filterRefusal(one!, call, { service_name: 'api', model: 'gpt-4o' })).toBeNull()
    expect(filterRefusal(one!, call, { service_name: 'web' })).toBe('service.name is "api", not "web"')
    expect(filterRefusal(one!, call, { model: 'gpt-4o-mini' })).toBe('the model is "gpt-4o", not "gpt-4o-mini"')
    expect(filterRefusal(one!, call, { attributes: { tenant: 'acme' } })).toBe('tenant is not set, not "acme"')
  })
})
