import { criteriaFields, OVERALL_CRITERION } from '../criteria/schema'
import type { ConfigOf } from '../shared-fields'
import type { EvaluationTypeChecks } from '../parts'

/** The criteria given are folded into the one `overall` criterion the judge scores. */
export const scoringFields = { ...criteriaFields }

export const scoringChecks: EvaluationTypeChecks<ConfigOf<'scoring', typeof scoringFields>> = {
  resolve(config) {
    const description = (config.criteria ?? []).map(c => c.description ?? c.name).join('; ')
    return { criteria: [{ name: 'overall', description: description || OVERALL_CRITERION.description, weight: 1 }] }
  },
}
