import { defineEvaluationTypeSpec } from '../spec'

/** The metric suite's built-in default judge, not the server's default judge. */
export const METRIC_DEFAULT_MODEL = 'anthropic:claude-sonnet-4-5-20250929'

export const metricsSpec = defineEvaluationTypeSpec({
  type: 'metrics',
  label: 'Metric suite',
  description: 'A suite of metrics (0–100) with weights, one judge call each.',
  inputs: ['content', 'context', 'reference'],
  usesJudge: true,
  judgesContent: true,
  sections: ['judge', 'metrics', 'threshold', 'feedback'],
  defaultModel: METRIC_DEFAULT_MODEL,
  order: 5,
})
