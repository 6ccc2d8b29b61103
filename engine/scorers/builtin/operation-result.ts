import { defineEditScorer, type EditData } from '../edits'
import { ratio } from '../types'
import { checkPatterns } from './content-quality'

/** score = 0.6 × application success rate + 0.4 × content score; an operation applies when its target exists in the original. */
function analyze({ actual, expected, original, originalIndex }: EditData) {
  const blocks = originalIndex()
  const failed: Array<{ operation: unknown, reason: string }> = []
  let applied = 0
  for (const op of actual.operations) {
    const ok = op.targetBlockId !== undefined ? blocks.has(op.targetBlockId) : op.targetIndex !== undefined && op.targetIndex < original.blocks.length
    if (ok) applied++
    else failed.push({ operation: op, reason: op.targetBlockId !== undefined ? `block "${op.targetBlockId}" is not in the original` : `index ${op.targetIndex ?? '(none)'} is outside the original's ${original.blocks.length} blocks` })
  }
  const applicationSuccessRate = actual.operations.length ? ratio(applied, actual.operations.length) : expected.operations.length ? 0 : 1
  const content = checkPatterns(actual, expected.patterns)
  const contentScore = ratio(content.matchedPatterns, content.totalPatterns)
  return {
    score: Math.round((0.6 * applicationSuccessRate + 0.4 * contentScore) * 1e6) / 1e6,
    applicationSuccessRate,
    contentScore,
    appliedOperations: applied,
    totalOperations: actual.operations.length,
    failedOperations: failed,
    contentIssues: content.contentIssues,
  }
}

export const operationResult = defineEditScorer({
  type: 'operation-result',
  label: 'Operation result',
  description: 'How many operations apply to the original (60 %) and how good the resulting content is (40 %).',
  defaultThreshold: 0.8,
  analyze,
})
