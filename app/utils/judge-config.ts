import { splitStepConfig } from '../../engine/evaluation-types/fields'
import { resolveEvaluatorConfig } from '../../engine/evaluator/config'

/**
 * Whether an evaluator step's config is one its judge can be told from, by the check its run makes
 * (the server's calibration answer takes the same): false while it is invalid, e.g. weights that do
 * not sum to 1 yet. A config in a file is read by the server only, so it is not judged here.
 */
export function judgeConfigValid(stepConfig: Record<string, unknown>): boolean {
  const { configFile, evaluator } = splitStepConfig(stepConfig)
  if (configFile) return true
  try {
    // The model is checked for its form only: which judge the server defaults to is its own business.
    resolveEvaluatorConfig(evaluator, 'local:heuristic')
    return true
  }
  catch {
    return false
  }
}
