import { defineEvaluationTypeSpec } from '../spec'

/**
 * The candidates come from `compare_inputs` (the form's candidate picker), the input's `candidates`,
 * or else the steps wired into it.
 */
export const comparisonSpec = defineEvaluationTypeSpec({
  type: 'comparison',
  label: 'Comparison',
  description: 'Ranks two or more candidates, judged in both orders.',
  inputs: ['context', 'reference'],
  usesJudge: true,
  judgesContent: false,
  candidatesFromGraph: true,
  sections: ['judge', 'candidates', 'criteria', 'threshold', 'feedback'],
  order: 3,
})
