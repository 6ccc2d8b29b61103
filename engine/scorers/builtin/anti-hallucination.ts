import type { EditOutput, ExpectedEdit, Original } from '../../schema/scorers'
import { blockIndex, editData } from '../edits'
import { analyzeOnce, defineScorer } from '../types'

type Rule = 'new block ids' | 'unexpected deletion' | 'change outside the expected targets'

/**
 * 1 only when the output adds no block id (beyond the expected inserts), deletes no block that was
 * not expected to go, and changes no block outside the expected targets; details say which rule broke.
 * Works on the resulting `blocks` when given, else on the operations.
 */
function analyze(actual: EditOutput, expected: ExpectedEdit, original: Original) {
  const originalBlocks = blockIndex(original.blocks)
  const expectedDeletes = new Set(expected.operations.filter(op => op.type === 'delete' && op.targetBlockId).map(op => op.targetBlockId!))
  const expectedTargets = new Set(expected.operations.filter(op => op.type !== 'delete' && op.targetBlockId).map(op => op.targetBlockId!))
  const allowedInserts = expected.operations.filter(op => op.type === 'insert').length
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
    newIds = actual.operations.filter(op => op.targetBlockId !== undefined && !originalBlocks.has(op.targetBlockId) && op.type !== 'insert').map(op => op.targetBlockId!)
    deleted = actual.operations.filter(op => op.type === 'delete' && op.targetBlockId !== undefined && !expectedDeletes.has(op.targetBlockId)).map(op => op.targetBlockId!)
    changed = actual.operations.filter(op => (op.type === 'update' || op.type === 'replace') && op.targetBlockId !== undefined && originalBlocks.has(op.targetBlockId) && !expectedTargets.has(op.targetBlockId)).map(op => op.targetBlockId!)
  }
  if (newIds.length > allowedInserts) broken.push({ rule: 'new block ids', blocks: newIds })
  if (deleted.length) broken.push({ rule: 'unexpected deletion', blocks: deleted })
  if (changed.length) broken.push({ rule: 'change outside the expected targets', blocks: changed })
  return { score: broken.length ? 0 : 1, noNewContent: newIds.length <= allowedInserts, noDeletedBlocks: !deleted.length, onlySpecifiedChanges: !changed.length, broken }
}

export const antiHallucination = defineScorer({
  type: 'anti-hallucination',
  label: 'Anti-hallucination',
  description: 'All or nothing: no invented blocks, no unexpected deletions, no changes outside the expected targets.',
  defaultThreshold: 1,
  score(actual, expected, ctx) {
    const data = editData(actual, expected, ctx.original, 'anti-hallucination')
    return analyzeOnce('anti-hallucination', data, ctx.options, () => analyze(data.actual, data.expected, data.original)).score
  },
  details(actual, expected, ctx) {
    const data = editData(actual, expected, ctx.original, 'anti-hallucination')
    const { score: _score, ...details } = analyzeOnce('anti-hallucination', data, ctx.options, () => analyze(data.actual, data.expected, data.original))
    return details
  },
})
