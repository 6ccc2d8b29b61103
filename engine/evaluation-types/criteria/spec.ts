import { defineEvaluationTypeSpec } from '../spec'

export const criteriaSpec = defineEvaluationTypeSpec({
  type: 'criteria',
  label: 'Criteria',
  description: 'A score per criterion; the overall score is their weighted mean.',
  inputs: ['content', 'context', 'reference'],
  usesJudge: true,
  judgesContent: true,
  sections: ['judge', 'criteria', 'threshold', 'feedback'],
  order: 2,
})
