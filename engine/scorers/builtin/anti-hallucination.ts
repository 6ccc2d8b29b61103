import type { Block, EditOutput, ExpectedEdit, Operation, Original } from '../../schema/scorers'
import { defineEditScorer, type EditData } from '../edits'

type Rule = 'new block ids' | 'unexpected deletion' | 'change outside the expected targets'
type Findings = { invented: string[], deleted: string[], changed: string[] }

/**
 * Where the expected inserts may put a new block: `<block id>|after` or `<block id>|before`, each
 * with how many blocks it places there. An insert without a target says nothing of where its block
 * goes: those are counted apart, as blocks allowed anywhere.
 */
class InsertSlots {
  private readonly open = new Map<string, number>()
  private anywhere = 0

  constructor(inserts: readonly Operation[], idOf: (op: Operation) => string | undefined) {
    for (const op of inserts) {
      const id = idOf(op)
      if (id === undefined) this.anywhere++
      else {
        const key = InsertSlots.key(id, op.position)
        this.open.set(key, (this.open.get(key) ?? 0) + 1)
      }
    }
  }

  static key(id: string, position: Operation['position']): string {
    return `${id}|${position ?? 'after'}`
  }

  /** Uses up one expected insert at one of the keys (in order), else one placed anywhere; false when none is left. */
  take(keys: readonly string[]): boolean {
    for (const key of keys) {
      const left = this.open.get(key) ?? 0
      if (left > 0) {
        this.open.set(key, left - 1)
        return true
      }
    }
    if (this.anywhere === 0) return false
    this.anywhere--
    return true
  }
}

/**
 * The resulting blocks against the original. A block whose id the original lacks is new; a run of
 * new blocks is accepted only as far as expected inserts place blocks there: `after` the block just
 * before the run or `before` the block just after it. Only the original's blocks can be changed or
 * deleted, and only an expected update or replace may change one, an expected delete remove one.
 */
function checkBlocks(blocks: readonly Block[], expected: ExpectedEdit, original: Original, positions: Map<string, number>, slots: InsertSlots): Findings {
  const marks = new Uint8Array(original.blocks.length)
  for (const op of expected.operations) {
    if (op.type === 'insert') continue
    const at = op.targetBlockId !== undefined ? positions.get(op.targetBlockId) : op.targetIndex
    if (at !== undefined && at < marks.length) marks[at]! |= op.type === 'delete' ? EXPECTED_DELETE : EXPECTED_TARGET
  }
  const found: Findings = { invented: [], deleted: [], changed: [] }
  let before: string | undefined
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!
    const at = positions.get(block.id)
    if (at === undefined) {
      // The first block of a run of new ones: find the block after the run, then place the run.
      let end = i
      while (end < blocks.length && !positions.has(blocks[end]!.id)) end++
      const after = blocks[end]?.id
      const keys = [...(before === undefined ? [] : [InsertSlots.key(before, 'after')]), ...(after === undefined ? [] : [InsertSlots.key(after, 'before')])]
      for (let k = i; k < end; k++) if (!slots.take(keys)) found.invented.push(blocks[k]!.id)
      i = end - 1
      continue
    }
    before = block.id
    marks[at]! |= PRESENT
    if (original.blocks[at]!.content !== block.content && !(marks[at]! & EXPECTED_TARGET)) found.changed.push(block.id)
  }
  original.blocks.forEach((block, i) => {
    // A repeated id in the original is marked at its last position.
    const mark = marks[i]! | (marks[positions.get(block.id)!]! & PRESENT)
    if (!(mark & PRESENT) && !(mark & EXPECTED_DELETE)) found.deleted.push(block.id)
  })
  return found
}

/**
 * From operations alone: an operation on a block that does not exist, or an insert no expected
 * insert accounts for (same target and position), brings in content that was not there.
 */
function checkOperations(
  actual: EditOutput,
  expected: ExpectedEdit,
  positions: Map<string, number>,
  idOf: (op: Operation) => string | undefined,
  slots: InsertSlots,
): Findings {
  const expectedDeletes = new Set<string>()
  const expectedTargets = new Set<string>()
  for (const op of expected.operations) {
    const id = idOf(op)
    if (id && op.type !== 'insert') (op.type === 'delete' ? expectedDeletes : expectedTargets).add(id)
  }
  const found: Findings = { invented: [], deleted: [], changed: [] }
  const unexpectedInserts: string[] = []
  for (const op of actual.operations) {
    const id = idOf(op)
    if (op.type === 'insert') {
      if (!slots.take(id === undefined ? [] : [InsertSlots.key(id, op.position)])) unexpectedInserts.push(`insert ${op.position ?? 'after'} ${id ?? '(no target)'}`)
      continue
    }
    if (op.targetBlockId !== undefined && !positions.has(op.targetBlockId)) found.invented.push(op.targetBlockId)
    if (id === undefined) continue
    if (op.type === 'delete' && !expectedDeletes.has(id)) found.deleted.push(id)
    if ((op.type === 'update' || op.type === 'replace') && positions.has(id) && !expectedTargets.has(id)) found.changed.push(id)
  }
  found.invented.push(...unexpectedInserts)
  return found
}

/**
 * 1 only when the output adds no block beyond what the expected inserts place (next to their
 * target, on their side), deletes no block that was not expected to go, and changes no block
 * outside the expected updates and replaces; details say which rule broke. Works on the resulting
 * `blocks` when given, else on the operations.
 */
function analyze({ actual, expected, original, originalIndex }: EditData) {
  const positions = originalIndex()
  // Expected operations may name their block by index: resolve it against the original.
  const idOf = (op: Operation) => op.targetBlockId ?? (op.targetIndex !== undefined ? original.blocks[op.targetIndex]?.id : undefined)
  const slots = new InsertSlots(expected.operations.filter(op => op.type === 'insert'), idOf)
  const { invented, deleted, changed } = actual.blocks
    ? checkBlocks(actual.blocks, expected, original, positions, slots)
    : checkOperations(actual, expected, positions, idOf, slots)
  const broken: Array<{ rule: Rule, blocks: string[] }> = []
  if (invented.length) broken.push({ rule: 'new block ids', blocks: invented })
  if (deleted.length) broken.push({ rule: 'unexpected deletion', blocks: deleted })
  if (changed.length) broken.push({ rule: 'change outside the expected targets', blocks: changed })
  return { score: broken.length ? 0 : 1, noNewContent: !invented.length, noDeletedBlocks: !deleted.length, onlySpecifiedChanges: !changed.length, broken }
}

const EXPECTED_TARGET = 1
const EXPECTED_DELETE = 2
const PRESENT = 4

export const antiHallucination = defineEditScorer({
  type: 'anti-hallucination',
  label: 'Anti-hallucination',
  description: 'All or nothing: no block beyond the expected inserts (in their place), no unexpected deletions, no changes outside the expected targets.',
  defaultThreshold: 1,
  analyze,
})
