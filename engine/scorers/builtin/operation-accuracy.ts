import { editData, matchOperations } from '../edits'
import { analyzeOnce, defineScorer, ratio } from '../types'

/** matched / expected operations; a match needs the same type, target and (inserts) position. */
export const operationAccuracy = defineScorer({
  type: 'operation-accuracy',
  label: 'Operation accuracy',
  description: 'Share of the expected operations found with the same type, target and, for inserts, position.',
  defaultThreshold: 0.8,
  score(actual, expected, ctx) {
    const data = editData(actual, expected, ctx, 'operation-accuracy')
    return ratio(analyzeOnce('operation-accuracy', data, ctx.options, () => matchOperations(data.actual.operations, data.expected.operations)).matched, data.expected.operations.length)
  },
  details(actual, expected, ctx) {
    const data = editData(actual, expected, ctx, 'operation-accuracy')
    const { matched, unmatched } = analyzeOnce('operation-accuracy', data, ctx.options, () => matchOperations(data.actual.operations, data.expected.operations))
    return { matchedOperations: matched, totalExpectedOperations: data.expected.operations.length, unmatchedOperations: unmatched }
  },
})
