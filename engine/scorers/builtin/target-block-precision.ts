import type { Operation } from '../../schema/scorers'
import { chainOperations, defineEditScorer, type EditData } from '../edits'
import { ratio } from '../types'

const target = (op: Operation | undefined) => (op ? { targetBlockId: op.targetBlockId ?? null, targetIndex: op.targetIndex ?? null } : null)

/**
 * An expected target is found when an unused actual operation aims at the same block id or the
 * same index. A miss is reported next to the actual operation in the same place of the list.
 */
function analyze({ actual, expected, targets }: EditData) {
  const slots = targets()
  const { take } = chainOperations(actual.operations, slots, 1, () => 0, false)
  const incorrect: Array<{ expected: ReturnType<typeof target>, actual: ReturnType<typeof target> }> = []
  let correct = 0
  expected.operations.forEach((want, j) => {
    const hit = (want.targetBlockId !== undefined && take(slots.expectedId[j]!, 0)) || (want.targetIndex !== undefined && take(slots.expectedIndex[j]!, 0))
    if (hit) correct++
    else incorrect.push({ expected: target(want), actual: target(actual.operations[j]) })
  })
  return { score: ratio(correct, expected.operations.length), correctTargets: correct, totalTargets: expected.operations.length, incorrectTargets: incorrect }
}

export const targetBlockPrecision = defineEditScorer({
  type: 'target-block-precision',
  label: 'Target block precision',
  description: 'Share of the expected targets that an operation aims at (same block id or same index).',
  defaultThreshold: 0.75,
  analyze,
})
