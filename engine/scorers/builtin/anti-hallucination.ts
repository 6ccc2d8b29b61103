import type { EditOutput, ExpectedEdit, Original } from '../../schema/scorers'
import { blockIndex, defineEditScorer } from '../edits'

type Rule = 'new block ids' | 'unexpected deletion' | 'change outside the expected targets'

/**
 * 1 only when the output adds no block id (beyond the expected inserts), deletes no block that was
 * not expected to go, and changes no block outside the expected targets; details say which rule broke.
 * Works on the resulting `blocks` when given, else on the operations.
 */
function analyze(actual: EditOutput, expected: ExpectedEdit, original: Original) {
  const originalBlocks = blockIndex(original.blocks)
  // Expected operations may name their block by index: resolve it against the original.
  const idOf = (op: { targetBlockId?: string, targetIndex?: number }) => op.targetBlockId ?? (op.targetIndex !== undefined ? original.blocks[op.targetIndex]?.id : undefined)
  const expectedDeletes = new Set(expected.operations.filter(op => op.type === 'delete').map(idOf).filter((id): id is string => !!id))
  const expectedTargets = new Set(expected.operations.filter(op => op.type !== 'delete').map(idOf).filter((id): id is string => !!id))
  const expectedInserts = expected.operations.filter(op => op.type === 'insert')
  let allowedInserts = expectedInserts.length
  const broken: Array<{ rule: Rule, blocks: string[] }> = []
  let newIds: string[]
  let deleted: string[]
  let changed: string[]
  if (actual.blocks) {
    const present = new Set(actual.blocks.map(b => b.id))
    newIds = actual.blocks.filter(b => !originalBlocks.has(b.id)).map(b => b.id)
    deleted = original.blocks.filter(b => !present.has(b.id) && !expectedDeletes.has(b.id)).map(b => b.id)
    changed = actual.blocks.filter(b => originalBlocks.has(b.id) && originalBlocks.get(b.id)!.content !== b.content && !expectedTargets.has(b.id)).map(b => b.id)
  }
  else {
    // From operations alone: an operation on a block that does not exist, or an insert no expected
    // insert accounts for (same target and position), brings in content that was not there.
    allowedInserts = 0
    const openInserts = expectedInserts.map(op => `${idOf(op)}|${op.position ?? 'after'}`)
    const unexpectedInserts = actual.operations.filter((op) => {
      if (op.type !== 'insert') return false
      const at = openInserts.indexOf(`${idOf(op)}|${op.position ?? 'after'}`)
      if (at >= 0) openInserts.splice(at, 1)
      return at < 0
    })
    newIds = [
      ...actual.operations.filter(op => op.type !== 'insert' && op.targetBlockId !== undefined && !originalBlocks.has(op.targetBlockId)).map(op => op.targetBlockId!),
      ...unexpectedInserts.map(op => `insert ${op.position ?? 'after'} ${idOf(op) ?? '(no target)'}`),
    ]
    deleted = actual.operations.filter(op => op.type === 'delete' && idOf(op) !== undefined && !expectedDeletes.has(idOf(op)!)).map(op => idOf(op)!)
    changed = actual.operations.filter(op => (op.type === 'update' || op.type === 'replace') && idOf(op) !== undefined && originalBlocks.has(idOf(op)!) && !expectedTargets.has(idOf(op)!)).map(op => idOf(op)!)
  }
  if (newIds.length > allowedInserts) broken.push({ rule: 'new block ids', blocks: newIds })
  if (deleted.length) broken.push({ rule: 'unexpected deletion', blocks: deleted })
  if (changed.length) broken.push({ rule: 'change outside the expected targets', blocks: changed })
  return { score: broken.length ? 0 : 1, noNewContent: newIds.length <= allowedInserts, noDeletedBlocks: !deleted.length, onlySpecifiedChanges: !changed.length, broken }
}

export const antiHallucination = defineEditScorer({
  type: 'anti-hallucination',
  label: 'Anti-hallucination',
  description: 'All or nothing: no invented blocks, no unexpected deletions, no changes outside the expected targets.',
  defaultThreshold: 1,
  analyze: ({ actual, expected, original }) => analyze(actual, expected, original),
})
