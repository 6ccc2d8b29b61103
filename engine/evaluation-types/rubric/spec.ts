import { defineEvaluationTypeSpec } from '../spec'

export const rubricSpec = defineEvaluationTypeSpec({
  type: 'rubric',
  label: 'Rubric',
  description: 'Criteria scores mapped onto your grade bands.',
  inputs: ['content', 'context', 'reference'],
  usesJudge: true,
  judgesContent: true,
  sections: ['judge', 'criteria', 'threshold', 'feedback', 'rubric'],
  order: 4,
})
