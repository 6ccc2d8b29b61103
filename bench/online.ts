/**
 * Online scoring under a production stream: 10,000 GenAI spans sent to POST /v1/traces of the built
 * server by OpenTelemetry's SDK as an app sends them (BatchSpanProcessor at its default 512 spans an
 * export, one export at a time; the OTLP/HTTP exporter in JSON), one rule at 10 % sampling with the
 * offline judge. Reports the spans acknowledged a second, p99 of an export request as the exporter
 * sees it (call to acknowledgement), that every sampled span is scored, and, on a second stream
 * whose server is SIGKILLed half way and restarted on the same port (the exporter retrying), that
 * every span acknowledged is decided and every acknowledged sampled span scored.
 * JUDGEFLOW_TEST_SERVER_ENTRY runs another build's server (the checkout's `.output` by default).
 */
import { loadavg } from 'node:os'
import { SpanKind, type SpanContext } from '@opentelemetry/api'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base'
import Database from 'better-sqlite3'
import { sampled } from '../engine/online/selection'
import { startAppServer, waitFor, type AppServer } from '../tests/support/app-server'
import { percentile, report } from './lib'

const SPANS = 10_000
const SAMPLE_RATE = 0.1
/** BatchSpanProcessor's default batch: what an app that sets nothing exports at a time. */
const BATCH = 512
const SCORING_TIMEOUT_MS = 300_000
const entry = process.env.JUDGEFLOW_TEST_SERVER_ENTRY || undefined
/**
 * The per-client limit (5,000 spans/s by default) raised out of the way: the stream goes as fast as
 * the server acknowledges, and past the limit it would be answered 429 and wait out Retry-After.
 */
const env = { JUDGEFLOW_OTLP_SPANS_PER_SECOND: '1000000' }
const criteria = { evaluation_type: 'criteria', model: 'local:heuristic', criteria: [{ name: 'helpfulness', weight: 1 }], pass_threshold: 0.5 }

/** An app's tracer pointed at `url`, its exports timed and the spans of each acknowledged export kept. */
function instrumentedApp(url: string) {
  const exporter = new OTLPTraceExporter({ url: `${url}/v1/traces` })
  const app = { latencies: [] as number[], acknowledged: [] as SpanContext[], failed: 0, lastAckAt: 0 }
  const send = exporter.export.bind(exporter)
  exporter.export = (spans, done) => {
    const started = performance.now()
    send(spans, (result) => {
      if (result.code === 0) { // ExportResultCode.SUCCESS
        app.latencies.push(performance.now() - started)
        app.acknowledged.push(...spans.map(span => span.spanContext()))
        app.lastAckAt = performance.now()
      }
      else app.failed += spans.length
      done(result)
    })
  }
  // The queue holds the whole stream: the figure is the server's pace, not spans the SDK dropped.
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'support-bot' }),
    spanProcessors: [new BatchSpanProcessor(exporter, { maxExportBatchSize: BATCH, maxQueueSize: SPANS })],
  })
  return { app, provider, tracer: provider.getTracer('online-bench') }
}

/**
 * `count` GenAI chat spans, started with their attributes and then ended together: the app's own
 * work is done before the exports start, so it does not hold up the exporter's event loop mid-stream.
 */
function chatSpans(tracer: ReturnType<typeof instrumentedApp>['tracer'], count: number): Array<{ end: () => void }> {
  return Array.from({ length: count }, (_, n) => tracer.startSpan('chat gpt-4o', {
    kind: SpanKind.CLIENT,
    attributes: {
      'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o', 'gen_ai.response.model': 'gpt-4o-2024-08-06',
      'gen_ai.system_instructions': JSON.stringify([{ type: 'text', content: 'You are the support assistant of an online shop. Answer briefly.' }]),
      'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: `How long do refunds take for order ${n}?` }] }]),
      'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: `Refunds for order ${n} reach your card within 5 business days.` }], finish_reason: 'stop' }]),
      'gen_ai.usage.input_tokens': 40 + (n % 17), 'gen_ai.usage.output_tokens': 12 + (n % 9),
    },
  }))
}

/** Decisions by span (`traceId/spanId`) with their status, read from the server's database. */
function decisionsByStatus(dbPath: string): { byStatus: Map<string, number>, bySpan: Map<string, string> } {
  const db = new Database(dbPath, { readonly: true })
  try {
    const rows = db.prepare('select trace_id as t, span_id as s, status from online_decisions').all() as Array<{ t: string, s: string, status: string }>
    const byStatus = new Map<string, number>()
    for (const row of rows) byStatus.set(row.status, (byStatus.get(row.status) ?? 0) + 1)
    return { byStatus, bySpan: new Map(rows.map(row => [`${row.t}/${row.s}`, row.status])) }
  }
  finally {
    db.close()
  }
}

async function createRule(server: AppServer): Promise<void> {
  const rule = await server.api('/api/online/rules', { body: { name: 'bench', evaluator: { config: criteria }, sample_rate: SAMPLE_RATE, max_per_minute: null } })
  if (rule.status !== 201) throw new Error(`creating the rule answered ${rule.status}: ${JSON.stringify(rule.body)}`)
}

/** Waits until no decision is queued; the statuses then. */
async function waitForScoring(dbPath: string): Promise<Map<string, number>> {
  return waitFor(() => {
    const { byStatus } = decisionsByStatus(dbPath)
    return (byStatus.get('queued') ?? 0) === 0 ? byStatus : undefined
  }, SCORING_TIMEOUT_MS, 'every queued span scored')
}

const load = () => loadavg().map(n => n.toFixed(2)).join(' ')

async function streamPhase(): Promise<void> {
  // BENCH_CPU_PROF=<dir>: the server's CPU profile of the stream, written there when it stops.
  const nodeArgs = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []
  const server = await startAppServer({ entry, env, nodeArgs })
  try {
    await createRule(server)
    const app = instrumentedApp(server.url)
    const spans = chatSpans(app.tracer, SPANS)
    const started = performance.now()
    for (const span of spans) span.end()
    // The full batches go one at a time as the processor sends them; the last part goes on flush.
    await waitFor(() => app.app.acknowledged.length + app.app.failed >= SPANS - (SPANS % BATCH), 120_000, 'the full batches acknowledged')
    await app.provider.forceFlush()
    await app.provider.shutdown()
    const seconds = (app.app.lastAckAt - started) / 1000
    const expected = app.app.acknowledged.filter(c => sampled(c.traceId, c.spanId, SAMPLE_RATE)).length
    report({ name: 'online: GenAI spans acknowledged by POST /v1/traces (OTel OTLP/HTTP JSON exporter, BatchSpanProcessor 512 a batch, 1 rule at 10 %)', value: app.app.acknowledged.length / seconds, unit: 'spans/s', target: '>= 2000' })
    report({ name: 'online: export request latency p99 (exporter side, 512 spans a request)', value: percentile(app.app.latencies, 99), unit: 'ms', target: '<= 250' })
    report({ name: 'online: export request latency p50', value: percentile(app.app.latencies, 50), unit: 'ms', target: 'reported' })
    report({ name: 'online: export request latency p95 (with 20 requests, p99 is the slowest)', value: percentile(app.app.latencies, 95), unit: 'ms', target: 'reported' })
    report({ name: 'online: spans the exporter failed to deliver', value: app.app.failed, unit: 'spans', target: '= 0' })
    const scoringStarted = performance.now()
    const statuses = await waitForScoring(server.dbPath)
    const scored = statuses.get('scored') ?? 0
    report({ name: 'online: spans in the 10 % sample (of 10,000)', value: expected, unit: 'spans', target: 'reported' })
    report({ name: 'online: sampled spans not scored (scored == sampled)', value: expected - scored, unit: 'spans', target: '= 0' })
    report({ name: 'online: sampled spans failed or over budget', value: (statuses.get('failed') ?? 0) + (statuses.get('over_budget') ?? 0), unit: 'spans', target: '= 0' })
    report({ name: 'online: time to score the sample after the stream', value: (performance.now() - scoringStarted) / 1000, unit: 's', target: 'reported' })
    report({ name: 'online: load average (1, 5, 15 min) after the stream', value: loadavg()[0]!, unit: `load (${load()})`, target: 'reported' })
  }
  finally {
    await server.stop()
  }
}

/** The stream again, the server SIGKILLed once half of it is acknowledged and restarted on its port. */
async function killPhase(): Promise<void> {
  const first = await startAppServer({ entry, env })
  let second: AppServer | undefined
  try {
    await createRule(first)
    const app = instrumentedApp(first.url)
    for (const span of chatSpans(app.tracer, SPANS)) span.end()
    await waitFor(() => app.app.acknowledged.length >= SPANS / 2, 120_000, 'half the stream acknowledged')
    await first.stop('SIGKILL')
    const acknowledgedBeforeKill = app.app.acknowledged.slice()
    const queuedAtKill = decisionsByStatus(first.dbPath).byStatus.get('queued') ?? 0
    second = await startAppServer({ entry, dbPath: first.dbPath, env: { ...env, PORT: new URL(first.url).port } })
    await app.provider.forceFlush().catch(() => undefined)
    await app.provider.shutdown().catch(() => undefined)
    await waitForScoring(first.dbPath)
    const { bySpan } = decisionsByStatus(first.dbPath)
    const lost = (contexts: SpanContext[]) => contexts.filter((c) => {
      const status = bySpan.get(`${c.traceId}/${c.spanId}`)
      return status === undefined || (sampled(c.traceId, c.spanId, SAMPLE_RATE) ? status !== 'scored' : status !== 'sampled_out')
    }).length
    report({ name: 'online: spans acknowledged before the SIGKILL', value: acknowledgedBeforeKill.length, unit: 'spans', target: 'reported' })
    report({ name: 'online: sampled spans still queued at the SIGKILL', value: queuedAtKill, unit: 'spans', target: 'reported' })
    report({ name: 'online: spans acknowledged before the SIGKILL and lost (undecided, or sampled and not scored after the restart)', value: lost(acknowledgedBeforeKill), unit: 'spans', target: '= 0' })
    report({ name: 'online: spans acknowledged in the whole stream (the exporter retrying into the restarted server) and lost', value: lost(app.app.acknowledged), unit: 'spans', target: '= 0' })
    report({ name: 'online: spans of that stream the exporter was told failed (never acknowledged)', value: app.app.failed, unit: 'spans', target: 'reported' })
    report({ name: 'online: load average (1, 5, 15 min) after the restart', value: loadavg()[0]!, unit: `load (${load()})`, target: 'reported' })
  }
  finally {
    await second?.stop()
    await first.stop('SIGKILL')
  }
}

export async function benchOnline(): Promise<void> {
  report({ name: 'online: load average (1, 5, 15 min) before the stream', value: loadavg()[0]!, unit: `load (${load()})`, target: 'reported' })
  await streamPhase()
  await killPhase()
}
