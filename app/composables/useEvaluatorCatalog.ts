import type { ScorerConfig } from '~~/engine/schema/scorers'
import type { ScorerInput } from '~~/engine/scorers/inputs'

export interface EvaluatorCatalog {
  metrics: Array<{ name: string, description: string }>
  default_metrics: string[]
  scorers: Array<{ type: string, label: string, description: string, default_threshold: number, input?: ScorerInput }>
  scorer_presets: Record<string, ScorerConfig[]>
}

/** GET /api/evaluators: the metrics and scorers the server offers; one request however many form sections ask. */
export function useEvaluatorCatalog() {
  const { data } = useFetch<EvaluatorCatalog>('/api/evaluators', {
    key: 'evaluator-catalog',
    default: () => ({ metrics: [], default_metrics: [], scorers: [], scorer_presets: {} }),
  })
  return data
}
