import { evaluationEventsPage } from '~~/server/utils/online'

/**
 * The scores as OpenTelemetry's `gen_ai.evaluation.result` events, each tied to the span it judged:
 * an OTLP/JSON logs export request a collector takes on /v1/logs (`?rule=`, `?after=`, `?limit=` as the scores).
 */
export default defineEventHandler(event => evaluationEventsPage(event))
