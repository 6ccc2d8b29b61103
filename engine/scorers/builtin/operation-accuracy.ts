import { defineEditScorer, matchOperations } from '../edits'
import { ratio } from '../types'

/** matched / expected operations; a match needs the same type, target and (inserts) position. */
export const operationAccuracy = defineEditScorer({
  type: 'operation-accuracy',
  label: 'Operation accuracy',
  description: 'Share of the expected operations found with the same type, target and, for inserts, position.',
  defaultThreshold: 0.8,
  analyze({ actual, expected, targets }) {
    const { matched, unmatched } = matchOperations(actual.operations, expected.operations, targets())
    return {
      score: ratio(matched, expected.operations.length),
      matchedOperations: matched,
      totalExpectedOperations: expected.operations.length,
      unmatchedOperations: unmatched,
    }
  },
})
