/** Shared matching of structured edits (scorer-design-guide): targets, operation keys, page contents. */
import { editOutputSchema, expectedEditSchema, originalSchema, type Block, type EditOutput, type ExpectedEdit, type Operation, type Original } from '../schema/scorers'
import { parseData } from './types'

type EditData = { actual: EditOutput, expected: ExpectedEdit, original: Original }
const parsedData = new WeakMap<object, { expected: unknown, original: unknown, data: EditData }>()

/**
 * The three inputs validated once per evaluation: every edit scorer of a run gets the same
 * objects, so the (large) operation lists are parsed once, not once per scorer and call.
 */
export function editData(actual: unknown, expected: unknown, original: unknown, scorer: string): EditData {
  const hit = actual && typeof actual === 'object' ? parsedData.get(actual) : undefined
  if (hit && hit.expected === expected && hit.original === original) return hit.data
  const data = {
    actual: parseData(editOutputSchema, actual, 'actual', scorer),
    expected: parseData(expectedEditSchema, expected, 'expected', scorer),
    original: parseData(originalSchema, original, 'original', scorer),
  }
  if (actual && typeof actual === 'object') parsedData.set(actual, { expected, original, data })
  return data
}

/** A target matches by block id when both have one, else by index. */
export function sameTarget(a: Operation, b: Operation): boolean {
  if (a.targetBlockId !== undefined && b.targetBlockId !== undefined) return a.targetBlockId === b.targetBlockId
  return a.targetIndex !== undefined && a.targetIndex === b.targetIndex
}

export function targetKey(op: Operation): string {
  return op.targetBlockId !== undefined ? `id:${op.targetBlockId}` : op.targetIndex !== undefined ? `ix:${op.targetIndex}` : 'none'
}

export type MismatchReason = 'type mismatch' | 'target mismatch' | 'position mismatch'

export interface OperationMatch {
  matched: number
  unmatched: Array<{ expected: Operation, reason: MismatchReason }>
}

/**
 * Each expected operation matches at most one actual operation with the same type and target
 * (and, for inserts, position). Linear in the number of operations: actual operations are
 * bucketed by target. An unmatched one says why: the nearest actual operation on the same target
 * differs in type or position; with none on that target, the target is wrong.
 */
export function matchOperations(actual: readonly Operation[], expected: readonly Operation[]): OperationMatch {
  const byTarget = new Map<string, number[]>()
  actual.forEach((op, i) => {
    const key = targetKey(op)
    const list = byTarget.get(key)
    if (list) list.push(i)
    else byTarget.set(key, [i])
  })
  const used = new Uint8Array(actual.length)
  let matched = 0
  const unmatched: OperationMatch['unmatched'] = []
  for (const want of expected) {
    const candidates = byTarget.get(targetKey(want)) ?? []
    const exact = candidates.find(i => !used[i] && actual[i]!.type === want.type && (want.type !== 'insert' || (actual[i]!.position ?? 'after') === (want.position ?? 'after')))
    if (exact !== undefined) {
      used[exact] = 1
      matched++
      continue
    }
    const sameType = candidates.some(i => !used[i] && actual[i]!.type === want.type)
    const onTarget = candidates.some(i => !used[i])
    unmatched.push({ expected: want, reason: sameType ? 'position mismatch' : onTarget ? 'type mismatch' : 'target mismatch' })
  }
  return { matched, unmatched }
}

/** Blocks by page ("" for blocks without one); falls back to the operations' content. */
export function contentByPage(actual: EditOutput): Map<string, string> {
  const pages = new Map<string, string[]>()
  const add = (page: string, text: string) => {
    const list = pages.get(page)
    if (list) list.push(text)
    else pages.set(page, [text])
  }
  if (actual.blocks) for (const block of actual.blocks) add(block.page ?? '', block.content)
  else for (const op of actual.operations) if (op.content) add('', op.content)
  return new Map([...pages].map(([page, texts]) => [page, texts.join('\n')]))
}

export function blockIndex(blocks: readonly Block[]): Map<string, Block> {
  return new Map(blocks.map(block => [block.id, block]))
}
