import { defineEvaluationTypeSpec } from '../spec'
import { output } from '../../steps/outputs'
import { CRITERIA_KEYS, criteriaNames, SAMPLES_FIELD, WARNINGS_FIELD } from '../outputs'

export const rubricSpec = defineEvaluationTypeSpec({
  type: 'rubric',
  label: 'Rubric',
  description: 'Criteria scores mapped onto your grade bands.',
  inputs: ['content', 'context', 'reference'],
  usesJudge: true,
  panel: true,
  judgesContent: true,
  sections: ['judge', 'criteria', 'threshold', 'feedback', 'rubric'],
  order: 4,
  outputs: config => ({
    scoreKeys: criteriaNames(config),
    scoreKeysAre: CRITERIA_KEYS,
    fields: { grade: output('string', 'the grade band the overall score falls in'), samples: SAMPLES_FIELD, warnings: WARNINGS_FIELD },
  }),
})
