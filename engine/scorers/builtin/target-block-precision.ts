import type { Operation } from '../../schema/scorers'
import { defineEditScorer } from '../edits'
import { ratio } from '../types'

const target = (op: Operation | undefined) => (op ? { targetBlockId: op.targetBlockId ?? null, targetIndex: op.targetIndex ?? null } : null)

/**
 * An expected target is found when an unused actual operation aims at the same block id or the
 * same index. A miss is reported next to the actual operation in the same place of the list.
 */
function compare(actual: readonly Operation[], expected: readonly Operation[]) {
  const byKey = new Map<string, { items: number[], next: number }>()
  const index = (key: string, i: number) => {
    const entry = byKey.get(key)
    if (entry) entry.items.push(i)
    else byKey.set(key, { items: [i], next: 0 })
  }
  actual.forEach((op, i) => {
    if (op.targetBlockId !== undefined) index(`id:${op.targetBlockId}`, i)
    if (op.targetIndex !== undefined) index(`ix:${op.targetIndex}`, i)
  })
  const used = new Uint8Array(actual.length)
  const take = (key: string) => {
    const entry = byKey.get(key)
    if (!entry) return false
    while (entry.next < entry.items.length && used[entry.items[entry.next]!]) entry.next++
    if (entry.next >= entry.items.length) return false
    used[entry.items[entry.next++]!] = 1
    return true
  }
  const incorrect: Array<{ expected: ReturnType<typeof target>, actual: ReturnType<typeof target> }> = []
  let correct = 0
  expected.forEach((want, i) => {
    const hit = (want.targetBlockId !== undefined && take(`id:${want.targetBlockId}`)) || (want.targetIndex !== undefined && take(`ix:${want.targetIndex}`))
    if (hit) correct++
    else incorrect.push({ expected: target(want), actual: target(actual[i]) })
  })
  return { correct, incorrect }
}

export const targetBlockPrecision = defineEditScorer({
  type: 'target-block-precision',
  label: 'Target block precision',
  description: 'Share of the expected targets that an operation aims at (same block id or same index).',
  defaultThreshold: 0.75,
  analyze({ actual, expected }) {
    const { correct, incorrect } = compare(actual.operations, expected.operations)
    return { score: ratio(correct, expected.operations.length), correctTargets: correct, totalTargets: expected.operations.length, incorrectTargets: incorrect }
  },
})
