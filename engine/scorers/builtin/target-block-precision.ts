import type { Operation } from '../../schema/scorers'
import { chainOperations, defineEditScorer, type TargetSlots } from '../edits'
import { ratio } from '../types'

const target = (op: Operation | undefined) => (op ? { targetBlockId: op.targetBlockId ?? null, targetIndex: op.targetIndex ?? null } : null)

/**
 * An expected target is found when an unused actual operation aims at the same block id or the
 * same index. A miss is reported next to the actual operation in the same place of the list.
 */
function compare(actual: readonly Operation[], expected: readonly Operation[], slots: TargetSlots) {
  const { take } = chainOperations(actual, slots, 1, () => 0, false)
  const incorrect: Array<{ expected: ReturnType<typeof target>, actual: ReturnType<typeof target> }> = []
  let correct = 0
  expected.forEach((want, j) => {
    const hit = (want.targetBlockId !== undefined && take(slots.expectedId[j]!, 0)) || (want.targetIndex !== undefined && take(slots.expectedIndex[j]!, 0))
    if (hit) correct++
    else incorrect.push({ expected: target(want), actual: target(actual[j]) })
  })
  return { correct, incorrect }
}

export const targetBlockPrecision = defineEditScorer({
  type: 'target-block-precision',
  label: 'Target block precision',
  description: 'Share of the expected targets that an operation aims at (same block id or same index).',
  defaultThreshold: 0.75,
  analyze({ actual, expected, targets }) {
    const { correct, incorrect } = compare(actual.operations, expected.operations, targets())
    return { score: ratio(correct, expected.operations.length), correctTargets: correct, totalTargets: expected.operations.length, incorrectTargets: incorrect }
  },
})
