import { defineEvaluationTypeSpec } from '../spec'

export const traceSpec = defineEvaluationTypeSpec({
  type: 'trace',
  label: 'Trace scoring',
  description: 'Scores an agent\'s reasoning trace: complexity, novelty, tool diversity, outcome.',
  inputs: ['trace'],
  usesJudge: false,
  judgesContent: false,
  sections: ['trace', 'threshold'],
  order: 7,
})
