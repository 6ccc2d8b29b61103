import { defineEvaluationTypeSpec } from '../spec'
import { CRITERIA_KEYS, criteriaNames, PANEL_FIELD, SAMPLES_FIELD, WARNINGS_FIELD } from '../outputs'

export const criteriaSpec = defineEvaluationTypeSpec({
  type: 'criteria',
  label: 'Criteria',
  description: 'A score per criterion; the overall score is their weighted mean.',
  inputs: ['content', 'context', 'reference'],
  usesJudge: true,
  panel: true,
  judgesContent: true,
  sections: ['judge', 'criteria', 'threshold', 'feedback'],
  order: 2,
  outputs: config => ({
    scoreKeys: criteriaNames(config), scoreKeysAre: CRITERIA_KEYS, fields: { samples: SAMPLES_FIELD, panel: PANEL_FIELD, warnings: WARNINGS_FIELD },
  }),
})
