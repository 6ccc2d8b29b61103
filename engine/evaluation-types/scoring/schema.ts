import { criteriaFields, OVERALL_CRITERION } from '../criteria/schema'
import type { EvaluatorConfigOf } from '../config-schema'
import type { EvaluationTypeChecks } from '../types'

/** The criteria given are folded into the one `overall` criterion the judge scores. */
export const scoringFields = { ...criteriaFields }

export const scoringChecks: EvaluationTypeChecks<EvaluatorConfigOf<'scoring'>> = {
  resolve(config) {
    const description = (config.criteria ?? []).map(c => c.description ?? c.name).join('; ')
    return { criteria: [{ name: 'overall', description: description || OVERALL_CRITERION.description, weight: 1 }] }
  },
}
