import { SpanKind } from '@opentelemetry/api'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { afterEach, describe, expect, it } from 'vitest'
import { sampled } from '../../engine/online/selection'
import { startAppServer, waitFor, type AppServer } from '../support/app-server'

/**
 * Production spans into the built server: OpenTelemetry's SDK and OTLP/HTTP exporter send GenAI
 * spans to POST /v1/traces, an online rule decides each, and its sample is scored by the offline
 * judge through durable runs — across a SIGKILL of the server, what was acknowledged is scored.
 * JUDGEFLOW_TEST_SERVER_ENTRY runs another build's server (the checkout's `.output` by default).
 */
const entry = process.env.JUDGEFLOW_TEST_SERVER_ENTRY || undefined
let servers: AppServer[] = []
afterEach(async () => {
  for (const server of servers) await server.stop('SIGKILL')
  servers = []
})

async function start(dbPath?: string) {
  const server = await startAppServer({ entry, ...(dbPath ? { dbPath } : {}) })
  servers.push(server)
  return server
}

const criteria = { evaluation_type: 'criteria', model: 'local:heuristic', criteria: [{ name: 'helpfulness', weight: 1 }], pass_threshold: 0.5 }

/** `count` GenAI chat spans sent by the OTLP/HTTP exporter (gzipped); the export results' codes (0: acknowledged). */
async function sendSpans(url: string, count: number): Promise<number[]> {
  const exporter = new OTLPTraceExporter({ url: `${url}/v1/traces`, compression: CompressionAlgorithm.GZIP })
  const codes: number[] = []
  const export_ = exporter.export.bind(exporter)
  exporter.export = (spans, done) => export_(spans, (result) => {
    codes.push(result.code)
    done(result)
  })
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'support-bot' }),
    spanProcessors: [new BatchSpanProcessor(exporter, { maxExportBatchSize: 25, maxQueueSize: 1_000 })],
  })
  const tracer = provider.getTracer('online-scoring-test')
  for (let n = 0; n < count; n++) {
    tracer.startSpan('chat gpt-4o', {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o',
        'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: `How long do refunds take? (${n})` }] }]),
        'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'Refunds reach your card within 5 business days.' }] }]),
      },
    }).end()
  }
  await provider.forceFlush()
  await provider.shutdown()
  return codes
}

async function decisionsOf(server: AppServer, ruleId: string, path = 'decisions') {
  return (await server.api(`/api/online/${path}?rule=${ruleId}&limit=500`)).body.decisions as Array<{ trace_id: string, span_id: string, status: string, score: number | null, run_id: string | null }>
}

describe('online scoring on the built server', () => {
  it('decides every span OpenTelemetry\'s exporter sends, scores the rule\'s sample, and answers a protobuf export with 415 in JSON', async () => {
    const server = await start()
    const rule = await server.api('/api/online/rules', { body: { name: 'helpful', evaluator: { config: criteria }, sample_rate: 0.5, max_per_minute: null } })
    expect(rule.status).toBe(201)
    expect(await sendSpans(server.url, 60)).toEqual([0, 0, 0])
    const decisions = await decisionsOf(server, rule.body.id)
    expect(decisions).toHaveLength(60)
    const inSample = decisions.filter(d => sampled(d.trace_id, d.span_id, 0.5))
    expect(decisions.filter(d => d.status === 'sampled_out')).toHaveLength(60 - inSample.length)
    const scores = await waitFor(async () => {
      const scored = await decisionsOf(server, rule.body.id, 'scores')
      return scored.length === inSample.length ? scored : undefined
    }, 30_000, 'every sampled span scored')
    expect(scores.every(d => d.score !== null && d.run_id !== null)).toBe(true)
    expect((await server.api(`/api/runs/${scores[0]!.run_id}`)).body.status).toBe('succeeded')
    const protobuf = await fetch(`${server.url}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/x-protobuf' }, body: new Uint8Array([10, 0]) })
    expect(protobuf.status).toBe(415)
    expect((await protobuf.json()).message).toMatch(/^OTLP in protobuf is not taken here: judgeflow takes OTLP\/HTTP in JSON/)
  })

  it('scores after a SIGKILL what it acknowledged before it', async () => {
    const first = await start()
    // One scoring a minute: most of the sample is still queued when the server is killed.
    const rule = await first.api('/api/online/rules', { body: { name: 'slow', evaluator: { config: criteria }, sample_rate: 0.5, max_per_minute: 1 } })
    expect(await sendSpans(first.url, 50)).toEqual([0, 0])
    const inSample = (await decisionsOf(first, rule.body.id)).filter(d => sampled(d.trace_id, d.span_id, 0.5)).length
    await first.stop('SIGKILL')
    const second = await start(first.dbPath)
    expect((await decisionsOf(second, rule.body.id)).filter(d => d.status !== 'sampled_out')).toHaveLength(inSample)
    await second.api(`/api/online/rules/${rule.body.id}`, { method: 'PUT', body: { name: 'slow', evaluator: { config: criteria }, sample_rate: 0.5, max_per_minute: null } })
    await waitFor(async () => (await decisionsOf(second, rule.body.id, 'scores')).length === inSample || undefined, 30_000, 'every acknowledged sampled span scored')
  })
})
