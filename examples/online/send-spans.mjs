// @ts-check
// Sends a model call from a Node app to a local judgeflow as an OpenTelemetry GenAI span:
// the SDK and its OTLP/HTTP exporter (JSON) post to judgeflow's /v1/traces, no collector between.
//   npm init -y
//   npm install @opentelemetry/api@^1.9.0 @opentelemetry/sdk-trace-base@~2.12.1 @opentelemetry/resources@~2.12.1 \
//     @opentelemetry/exporter-trace-otlp-http@^0.223.1 @opentelemetry/semantic-conventions@~1.45.0
//   JUDGEFLOW_TOKEN=... node send-spans.mjs      (the token only if the server has one)
import { SpanKind } from '@opentelemetry/api'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions'
import {
  ATTR_GEN_AI_INPUT_MESSAGES, ATTR_GEN_AI_OPERATION_NAME, ATTR_GEN_AI_OUTPUT_MESSAGES, ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL, ATTR_GEN_AI_RESPONSE_MODEL, ATTR_GEN_AI_SYSTEM_INSTRUCTIONS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS, ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
} from '@opentelemetry/semantic-conventions/incubating'

const url = process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? 'http://127.0.0.1:3000/v1/traces'
const token = process.env.JUDGEFLOW_TOKEN
const provider = new BasicTracerProvider({
  resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'support-bot' }),
  // The exporter's default protocol is OTLP/HTTP in JSON, which judgeflow takes.
  spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url, headers: token ? { Authorization: `Bearer ${token}` } : {} }))],
})
const tracer = provider.getTracer('support-bot')

/** @typedef {{ type: 'text', content: string }} TextPart */
/** @typedef {{ role: 'user' | 'assistant', parts: TextPart[], finish_reason?: string }} ChatMessage */

/**
 * Records one chat call as the GenAI semantic conventions describe it.
 * @param {{ model: string, instructions: string, input: ChatMessage[], output: ChatMessage[], usage: { input: number, output: number } }} call
 */
function recordChat(call) {
  const span = tracer.startSpan(`chat ${call.model}`, {
    kind: SpanKind.CLIENT,
    attributes: {
      [ATTR_GEN_AI_OPERATION_NAME]: 'chat',
      [ATTR_GEN_AI_PROVIDER_NAME]: 'openai',
      [ATTR_GEN_AI_REQUEST_MODEL]: call.model,
      [ATTR_GEN_AI_RESPONSE_MODEL]: `${call.model}-2024-08-06`,
      [ATTR_GEN_AI_SYSTEM_INSTRUCTIONS]: JSON.stringify([{ type: 'text', content: call.instructions }]),
      [ATTR_GEN_AI_INPUT_MESSAGES]: JSON.stringify(call.input),
      [ATTR_GEN_AI_OUTPUT_MESSAGES]: JSON.stringify(call.output),
      [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: call.usage.input,
      [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: call.usage.output,
    },
  })
  span.end()
  return span.spanContext()
}

const sent = recordChat({
  model: 'gpt-4o',
  instructions: 'You are the support assistant of an online shop. Answer briefly.',
  input: [{ role: 'user', parts: [{ type: 'text', content: 'How long do refunds take?' }] }],
  output: [{ role: 'assistant', parts: [{ type: 'text', content: 'Refunds reach your card within 5 business days.' }], finish_reason: 'stop' }],
  usage: { input: 31, output: 12 },
})
// Exports what is batched and waits for judgeflow's answer: rejects if the export failed.
await provider.shutdown()
console.log(`sent span ${sent.traceId}/${sent.spanId} to ${url}`)
