import { defineEvaluationTypeSpec } from '../spec'
import { objectOf, output, keyedBy } from '../../steps/outputs'
import { CRITERIA_KEYS, criteriaNames, WARNINGS_FIELD } from '../outputs'

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
  panel: true,
  judgesContent: false,
  candidatesFromGraph: true,
  sections: ['judge', 'candidates', 'criteria', 'threshold', 'feedback'],
  order: 3,
  outputs: (config) => {
    const criteria = criteriaNames(config)
    return {
      scoreKeys: criteria,
      scoreKeysAre: `${CRITERIA_KEYS}, for the best candidate`,
      fields: {
        warnings: WARNINGS_FIELD,
        criteria_reasons: output('object', 'the judge\'s reason for each candidate, by candidate id', { open: true }),
        ranking: output('array', 'the candidates, best first', {
          items: objectOf({
            id: output('string', 'the candidate\'s id: the step it came from, or candidate_<n>'),
            rank: output('number', '1 for the best; tied candidates share a rank'),
            overall_score: output('number', 'its mean overall score, 0–1'),
            criteria_scores: keyedBy(criteria, output('number', 'its score on the criterion, 0–1'), 'its score per criterion'),
            scores_by_order: output('array', 'its overall score in each order it was shown in', { items: output('number', 'a score') }),
          }, 'a ranked candidate'),
        }),
        winner: output(['string', 'null'], 'the best candidate\'s id, or null on a tie'),
        best_output: output('string', 'the best candidate\'s text'),
        position_consistency: output('number', 'how far the ranking held when the order was swapped, 0–1'),
      },
    }
  },
})
