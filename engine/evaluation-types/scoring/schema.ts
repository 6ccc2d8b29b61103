import { criteriaFields } from '../criteria/schema'

/** The criteria given are folded into the one `overall` criterion the judge scores. */
export const scoringFields = { ...criteriaFields }
