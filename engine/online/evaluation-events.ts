/**
 * Online scores as OpenTelemetry's GenAI evaluation events: each a `gen_ai.evaluation.result` log
 * record (its name, score value and label, explanation) tied to the span it judged by trace and
 * span id, in an OTLP/JSON logs export request a collector takes as it is (POST /v1/logs).
 */
import {
  ATTR_GEN_AI_EVALUATION_EXPLANATION, ATTR_GEN_AI_EVALUATION_NAME, ATTR_GEN_AI_EVALUATION_SCORE_LABEL, ATTR_GEN_AI_EVALUATION_SCORE_VALUE,
  EVENT_GEN_AI_EVALUATION_RESULT,
} from '@opentelemetry/semantic-conventions/incubating'

export interface EvaluationScore {
  traceId: string
  spanId: string
  /** The evaluation's name: the online rule's. */
  name: string
  score: number
  /** The verdict (pass, fail), when there is one. */
  label: string | null
  explanation: string | null
  /** When it was scored, epoch ms. */
  at: number
}

type KeyValue = { key: string, value: { stringValue: string } | { doubleValue: number } }

/** An ExportLogsServiceRequest (OTLP/JSON) of one `gen_ai.evaluation.result` event per score. */
export function evaluationEvents(scores: readonly EvaluationScore[], service = 'judgeflow') {
  const text = (key: string, value: string): KeyValue => ({ key, value: { stringValue: value } })
  return {
    resourceLogs: [{
      resource: { attributes: [text('service.name', service)] },
      scopeLogs: [{
        scope: { name: 'judgeflow.online' },
        logRecords: scores.map(score => ({
          timeUnixNano: (BigInt(score.at) * BigInt(1_000_000)).toString(),
          eventName: EVENT_GEN_AI_EVALUATION_RESULT,
          traceId: score.traceId,
          spanId: score.spanId,
          attributes: [
            text(ATTR_GEN_AI_EVALUATION_NAME, score.name),
            { key: ATTR_GEN_AI_EVALUATION_SCORE_VALUE, value: { doubleValue: score.score } },
            ...(score.label === null ? [] : [text(ATTR_GEN_AI_EVALUATION_SCORE_LABEL, score.label)]),
            ...(score.explanation === null ? [] : [text(ATTR_GEN_AI_EVALUATION_EXPLANATION, score.explanation)]),
          ],
        })),
      }],
    }],
  }
}
