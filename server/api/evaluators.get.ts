import { DEFAULT_METRICS, DEFAULT_PROFILES, defaultMetricRegistry, defaultScorerRegistry, evaluationTypes, SCORER_PRESETS } from '../../engine'

/** What the evaluator form offers: the metrics and scorers this server has (built-in and custom), the presets and trace profiles. */
export default defineEventHandler(() => ({
  evaluation_types: evaluationTypes,
  metrics: defaultMetricRegistry.names().map((name) => {
    const metric = defaultMetricRegistry.get(name)!
    return { name, description: metric.description, computed: typeof metric.score === 'function' }
  }),
  default_metrics: DEFAULT_METRICS,
  scorers: defaultScorerRegistry.types().map((type) => {
    const scorer = defaultScorerRegistry.get(type)!
    return { type, label: scorer.label, description: scorer.description, default_threshold: scorer.defaultThreshold }
  }),
  scorer_presets: SCORER_PRESETS,
  trace_profiles: DEFAULT_PROFILES,
}))
