/** Shared matching of structured edits (scorer-design-guide): targets, operation keys, page contents. */
import { editOutputSchema, expectedEditSchema, originalSchema, type Block, type EditOutput, type ExpectedEdit, type Operation, type Original } from '../schema/scorers'
import { JudgeflowError } from '../errors'
import { analyzeOnce, parseData, type ScorerContext, type ScorerDefinition } from './types'

type EditData = { actual: EditOutput, expected: ExpectedEdit, original: Original }
const parsedPerRun = new WeakMap<object, EditData>()

/**
 * The three inputs validated once per evaluation: every edit scorer of a run gets the same
 * inputs, so the (large) operation lists are parsed once, not once per scorer and call.
 * A missing `expected` is an error: with nothing to compare against, nothing can pass.
 */
export function editData(actual: unknown, expected: unknown, ctx: ScorerContext, scorer: string): EditData {
  const hit = ctx.run && parsedPerRun.get(ctx.run)
  if (hit) return hit
  if (expected === undefined || expected === null) throw new JudgeflowError('INVALID_INPUT', `Scorer "${scorer}": expected is missing: give input.expected (the operations and patterns to compare with).`)
  const data = {
    actual: fastEdit(actual) ?? parseData(editOutputSchema, actual, 'actual', scorer),
    expected: parseData(expectedEditSchema, expected, 'expected', scorer),
    original: fastOriginal(ctx.original) ?? parseData(originalSchema, ctx.original, 'original', scorer),
  }
  if (ctx.run) parsedPerRun.set(ctx.run, data)
  return data
}

const OPERATION_TYPES = new Set(['insert', 'update', 'delete', 'replace'])
const isOptional = (value: unknown, type: string) => value === undefined || typeof value === type

/**
 * The common case checked without copying: large, well-formed lists are used as they are.
 * Anything unusual (a missing field with a default, a wrong type) goes through zod, whose
 * error names the field.
 */
function fastOperations(value: unknown): Operation[] | undefined {
  if (!Array.isArray(value)) return undefined
  for (const op of value) {
    if (!op || typeof op !== 'object' || !OPERATION_TYPES.has(op.type)) return undefined
    if (!isOptional(op.targetBlockId, 'string') || !isOptional(op.content, 'string')) return undefined
    if (op.targetIndex !== undefined && !(Number.isInteger(op.targetIndex) && op.targetIndex >= 0)) return undefined
    if (op.position !== undefined && op.position !== 'before' && op.position !== 'after') return undefined
  }
  return value as Operation[]
}

function fastBlocks(value: unknown): Block[] | undefined {
  if (!Array.isArray(value)) return undefined
  for (const b of value) {
    if (!b || typeof b !== 'object' || typeof b.id !== 'string' || typeof b.content !== 'string' || !isOptional(b.page, 'string')) return undefined
  }
  return value as Block[]
}

function fastEdit(value: unknown): EditOutput | undefined {
  if (!value || typeof value !== 'object') return undefined
  const v = value as { operations?: unknown, blocks?: unknown, durationMs?: unknown }
  const operations = v.operations === undefined ? [] : fastOperations(v.operations)
  const blocks = v.blocks === undefined ? undefined : fastBlocks(v.blocks)
  if (!operations || (v.blocks !== undefined && !blocks) || !(v.durationMs === undefined || (typeof v.durationMs === 'number' && v.durationMs >= 0))) return undefined
  return { ...v, operations, blocks } as EditOutput
}

function fastOriginal(value: unknown): Original | undefined {
  if (value === undefined) return { blocks: [] }
  if (!value || typeof value !== 'object') return undefined
  const blocks = (value as { blocks?: unknown }).blocks
  const checked = blocks === undefined ? [] : fastBlocks(blocks)
  return checked ? { ...(value as object), blocks: checked } as Original : undefined
}

/** The key an expected operation is looked up by: its block id when it has one, else its index. */
function lookupKey(op: Operation): string {
  return op.targetBlockId !== undefined ? `id:${op.targetBlockId}` : op.targetIndex !== undefined ? `ix:${op.targetIndex}` : 'none'
}

export type MismatchReason = 'type mismatch' | 'target mismatch' | 'position mismatch'

export interface OperationMatch {
  matched: number
  unmatched: Array<{ expected: Operation, reason: MismatchReason }>
}

/**
 * Each expected operation matches at most one actual operation with the same type and target
 * (by block id, else by index) and, for inserts, position. Linear in the number of operations:
 * actual operations are queued per (target, type, position) and consumed in order. An unmatched
 * one says why: an actual operation on its target of the same type (wrong position) or of
 * another type; none on its target at all means the target is wrong.
 */
export function matchOperations(actual: readonly Operation[], expected: readonly Operation[]): OperationMatch {
  // Flat maps (few allocations per operation): the queue of indexes per target and kind, and a
  // bitmask of the operation types found on each target.
  const queues = new Map<string, { items: number[], next: number }>()
  const typesOn = new Map<string, number>()
  const add = (target: string, op: Operation, i: number) => {
    const key = `${target}#${kindOf(op)}`
    const queue = queues.get(key)
    if (queue) queue.items.push(i)
    else queues.set(key, { items: [i], next: 0 })
    typesOn.set(target, (typesOn.get(target) ?? 0) | TYPE_BIT[op.type]!)
  }
  actual.forEach((op, i) => {
    if (op.targetBlockId !== undefined) add(`id:${op.targetBlockId}`, op, i)
    if (op.targetIndex !== undefined) add(`ix:${op.targetIndex}`, op, i)
    if (op.targetBlockId === undefined && op.targetIndex === undefined) add('none', op, i)
  })
  const used = new Uint8Array(actual.length)
  let matched = 0
  const unmatched: OperationMatch['unmatched'] = []
  for (const want of expected) {
    const target = lookupKey(want)
    const queue = queues.get(`${target}#${kindOf(want)}`)
    while (queue && queue.next < queue.items.length && used[queue.items[queue.next]!]) queue.next++
    if (queue && queue.next < queue.items.length) {
      used[queue.items[queue.next++]!] = 1
      matched++
      continue
    }
    const types = typesOn.get(target)
    const sameType = types !== undefined && (types & TYPE_BIT[want.type]!) !== 0
    unmatched.push({ expected: want, reason: types === undefined ? 'target mismatch' : sameType && want.type === 'insert' ? 'position mismatch' : sameType ? 'target mismatch' : 'type mismatch' })
  }
  return { matched, unmatched }
}

const TYPE_BIT: Record<string, number> = { insert: 1, update: 2, delete: 4, replace: 8 }
/** Type and (inserts) position as one small number. */
const kindOf = (op: Operation) => TYPE_BIT[op.type]! * 4 + (op.type !== 'insert' ? 0 : op.position === 'before' ? 1 : 2)

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

/**
 * An edit scorer is one analysis of the parsed data: `score` and `details` are its two views,
 * computed once per evaluation.
 */
export function defineEditScorer(definition: Omit<ScorerDefinition, 'score' | 'details'> & {
  analyze(data: EditData, options: Record<string, unknown>): { score: number } & Record<string, unknown>
}): ScorerDefinition {
  const { analyze, ...meta } = definition
  const run = (actual: unknown, expected: unknown, ctx: ScorerContext) => {
    const data = editData(actual, expected, ctx, meta.type)
    return analyzeOnce(meta.type, data, ctx.options, () => analyze(data, ctx.options))
  }
  return {
    ...meta,
    score: (actual, expected, ctx) => run(actual, expected, ctx).score,
    details: (actual, expected, ctx) => {
      const { score: _score, ...details } = run(actual, expected, ctx)
      return details
    },
  }
}
