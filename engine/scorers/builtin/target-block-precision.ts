import type { Operation } from '../../schema/scorers'
import { editData } from '../edits'
import { analyzeOnce, defineScorer, ratio } from '../types'

const target = (op: Operation | undefined) => (op ? { targetBlockId: op.targetBlockId ?? null, targetIndex: op.targetIndex ?? null } : null)

/** The i-th actual operation hits the i-th expected target when the block id or the index matches. */
function compare(actual: readonly Operation[], expected: readonly Operation[]) {
  const incorrect: Array<{ expected: ReturnType<typeof target>, actual: ReturnType<typeof target> }> = []
  let correct = 0
  expected.forEach((want, i) => {
    const got = actual[i]
    const hit = !!got && ((want.targetBlockId !== undefined && want.targetBlockId === got.targetBlockId) || (want.targetIndex !== undefined && want.targetIndex === got.targetIndex))
    if (hit) correct++
    else incorrect.push({ expected: target(want), actual: target(got) })
  })
  return { correct, incorrect }
}

export const targetBlockPrecision = defineScorer({
  type: 'target-block-precision',
  label: 'Target block precision',
  description: 'Share of operations aimed at the right block (same block id or same index), in order.',
  defaultThreshold: 0.75,
  score(actual, expected, ctx) {
    const data = editData(actual, expected, ctx.original, 'target-block-precision')
    return ratio(analyzeOnce('target-block-precision', data, ctx.options, () => compare(data.actual.operations, data.expected.operations)).correct, data.expected.operations.length)
  },
  details(actual, expected, ctx) {
    const data = editData(actual, expected, ctx.original, 'target-block-precision')
    const { correct, incorrect } = analyzeOnce('target-block-precision', data, ctx.options, () => compare(data.actual.operations, data.expected.operations))
    return { correctTargets: correct, totalTargets: data.expected.operations.length, incorrectTargets: incorrect }
  },
})
