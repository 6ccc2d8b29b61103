import type { EditOutput, ExpectedEdit, Operation, Original } from '../../schema/scorers'
import { defineEditScorer } from '../edits'

type Rule = 'new block ids' | 'unexpected deletion' | 'change outside the expected targets'

/**
 * 1 only when the output adds no block id (beyond the expected inserts), deletes no block that was
 * not expected to go, and changes no block outside the expected targets; details say which rule broke.
 * Works on the resulting `blocks` when given, else on the operations.
 */
function analyze(actual: EditOutput, expected: ExpectedEdit, original: Original, positions: Map<string, number>) {
  // Expected operations may name their block by index: resolve it against the original.
  const idOf = (op: Operation) => op.targetBlockId ?? (op.targetIndex !== undefined ? original.blocks[op.targetIndex]?.id : undefined)
  const expectedInserts = expected.operations.filter(op => op.type === 'insert')
  let allowedInserts = expectedInserts.length
  const broken: Array<{ rule: Rule, blocks: string[] }> = []
  const newIds: string[] = []
  const deleted: string[] = []
  const changed: string[] = []
  if (actual.blocks) {
    // Only the original's blocks can be changed or deleted: marks per original position.
    const marks = new Uint8Array(original.blocks.length)
    for (const op of expected.operations) {
      const at = op.targetBlockId !== undefined ? positions.get(op.targetBlockId) : op.targetIndex
      if (at !== undefined && at < marks.length) marks[at]! |= op.type === 'delete' ? EXPECTED_DELETE : EXPECTED_TARGET
    }
    for (const block of actual.blocks) {
      const at = positions.get(block.id)
      if (at === undefined) {
        newIds.push(block.id)
        continue
      }
      marks[at]! |= PRESENT
      if (original.blocks[at]!.content !== block.content && !(marks[at]! & EXPECTED_TARGET)) changed.push(block.id)
    }
    original.blocks.forEach((block, i) => {
      // A repeated id in the original is marked at its last position.
      const mark = marks[i]! | (marks[positions.get(block.id)!]! & PRESENT)
      if (!(mark & PRESENT) && !(mark & EXPECTED_DELETE)) deleted.push(block.id)
    })
  }
  else {
    // From operations alone: an operation on a block that does not exist, or an insert no expected
    // insert accounts for (same target and position), brings in content that was not there.
    allowedInserts = 0
    const expectedDeletes = new Set<string>()
    const expectedTargets = new Set<string>()
    for (const op of expected.operations) {
      const id = idOf(op)
      if (id) (op.type === 'delete' ? expectedDeletes : expectedTargets).add(id)
    }
    const openInserts = new Map<string, number>()
    for (const op of expectedInserts) {
      const key = `${idOf(op)}|${op.position ?? 'after'}`
      openInserts.set(key, (openInserts.get(key) ?? 0) + 1)
    }
    const unexpectedInserts: string[] = []
    for (const op of actual.operations) {
      const id = idOf(op)
      if (op.type === 'insert') {
        const key = `${id}|${op.position ?? 'after'}`
        const open = openInserts.get(key) ?? 0
        if (open > 0) openInserts.set(key, open - 1)
        else unexpectedInserts.push(`insert ${op.position ?? 'after'} ${id ?? '(no target)'}`)
        continue
      }
      if (op.targetBlockId !== undefined && !positions.has(op.targetBlockId)) newIds.push(op.targetBlockId)
      if (id === undefined) continue
      if (op.type === 'delete' && !expectedDeletes.has(id)) deleted.push(id)
      if ((op.type === 'update' || op.type === 'replace') && positions.has(id) && !expectedTargets.has(id)) changed.push(id)
    }
    newIds.push(...unexpectedInserts)
  }
  if (newIds.length > allowedInserts) broken.push({ rule: 'new block ids', blocks: newIds })
  if (deleted.length) broken.push({ rule: 'unexpected deletion', blocks: deleted })
  if (changed.length) broken.push({ rule: 'change outside the expected targets', blocks: changed })
  return { score: broken.length ? 0 : 1, noNewContent: newIds.length <= allowedInserts, noDeletedBlocks: !deleted.length, onlySpecifiedChanges: !changed.length, broken }
}

const EXPECTED_TARGET = 1
const EXPECTED_DELETE = 2
const PRESENT = 4

export const antiHallucination = defineEditScorer({
  type: 'anti-hallucination',
  label: 'Anti-hallucination',
  description: 'All or nothing: no invented blocks, no unexpected deletions, no changes outside the expected targets.',
  defaultThreshold: 1,
  analyze: data => analyze(data.actual, data.expected, data.original, data.originalIndex()),
})
