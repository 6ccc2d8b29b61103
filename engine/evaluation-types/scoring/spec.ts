import { defineEvaluationTypeSpec } from '../spec'

export const scoringSpec = defineEvaluationTypeSpec({
  type: 'scoring',
  order: 1,
  label: 'Scoring',
  description: 'One overall score from the judge, with feedback.',
  inputs: ['content', 'context', 'reference'],
  usesJudge: true,
  judgesContent: true,
  sections: ['judge', 'criteria', 'threshold', 'feedback'],
})
