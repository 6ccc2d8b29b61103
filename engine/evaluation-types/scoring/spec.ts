import { defineEvaluationTypeSpec } from '../spec'

export const scoringSpec = defineEvaluationTypeSpec({
  type: 'scoring',
  label: 'Scoring',
  description: 'One overall score from the judge, with feedback.',
  inputs: ['content', 'context', 'reference'],
  usesJudge: true,
  judgesContent: true,
  sections: ['judge', 'criteria', 'threshold', 'feedback'],
  order: 1,
})
