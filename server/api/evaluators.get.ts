import { DEFAULT_METRICS, DEFAULT_PROFILES, evaluationTypes, SCORER_PRESETS } from '~~/engine'
import { useJudgeflow } from '~~/server/utils/context'

/** What the evaluator form offers: the metrics and scorers this server has (built-in and custom), the presets and trace profiles. */
export default defineEventHandler(() => {
  const { metrics, scorers } = useJudgeflow()
  return {
    evaluation_types: evaluationTypes,
    metrics: metrics.names().map((name) => {
      const metric = metrics.get(name)!
      return { name, description: metric.description, computed: typeof metric.score === 'function' }
    }),
    default_metrics: DEFAULT_METRICS,
    scorers: scorers.types().map((type) => {
      const scorer = scorers.get(type)!
      return { type, label: scorer.label, description: scorer.description, default_threshold: scorer.defaultThreshold, input: scorer.input }
    }),
    scorer_presets: SCORER_PRESETS,
    trace_profiles: DEFAULT_PROFILES,
  }
})
