import { defineEvaluationTypeSpec } from '../spec'

/** Each scorer has its own threshold, so the form shows no overall one. */
export const scorersSpec = defineEvaluationTypeSpec({
  type: 'scorers',
  label: 'Scorers',
  description: 'Deterministic scorers: no LLM; every scorer must reach its threshold.',
  inputs: ['actual', 'expected', 'original'],
  usesJudge: false,
  judgesContent: false,
  sections: ['scorers'],
  order: 6,
})
