/** Shared matching of structured edits: targets, operation keys, page contents. */
import { contentPatternSchema, editOutputSchema, expectedEditSchema, originalSchema, type Block, type EditOutput, type ExpectedEdit, type Operation, type Original } from '../schema/scorers'
import { JudgeflowError } from '../errors'
import { defineScorer, parseData, type ScorerContext, type ScorerDefinition, type ScorerSpec } from './types'

export type EditData = {
  actual: EditOutput
  expected: ExpectedEdit
  original: Original
  /** The position of each original block by its id, built on first use and shared by the run's scorers. */
  originalIndex(): Map<string, number>
  /** The operations' targets as slots, built on first use and shared by the run's scorers. */
  targets(): TargetSlots
}
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
  let originalIndex: Map<string, number> | undefined
  let targets: TargetSlots | undefined
  const data: EditData = {
    originalIndex: () => (originalIndex ??= positionsById(data.original.blocks)),
    targets: () => (targets ??= targetSlots(data.actual.operations, data.expected.operations)),
    actual: fastEdit(actual) ?? parseData(editOutputSchema, actual, 'actual', scorer),
    expected: fastExpected(expected) ?? parseData(expectedEditSchema, expected, 'expected', scorer),
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

function fastExpected(value: unknown): ExpectedEdit | undefined {
  if (!value || typeof value !== 'object') return undefined
  const v = value as { operations?: unknown, patterns?: unknown }
  const operations = v.operations === undefined ? [] : fastOperations(v.operations)
  // Patterns are few: zod checks them (and names a bad one) at no real cost.
  const patterns = contentPatternSchema.array().safeParse(v.patterns ?? [])
  return operations && patterns.success ? { ...v, operations, patterns: patterns.data } as ExpectedEdit : undefined
}

function fastOriginal(value: unknown): Original | undefined {
  if (value === undefined) return { blocks: [] }
  if (!value || typeof value !== 'object') return undefined
  const blocks = (value as { blocks?: unknown }).blocks
  const checked = blocks === undefined ? [] : fastBlocks(blocks)
  return checked ? { ...(value as object), blocks: checked } as Original : undefined
}

export type MismatchReason = 'type mismatch' | 'target mismatch' | 'position mismatch'

export interface OperationMatch {
  matched: number
  unmatched: Array<{ expected: Operation, reason: MismatchReason }>
}

/**
 * The targets of a run's operations as dense slot numbers, so that the edit scorers match on
 * typed arrays: one hash lookup per operation, shared by every scorer of the run. Block ids and
 * indexes are separate slots; slot 0 stands for "no target".
 */
export interface TargetSlots {
  count: number
  /** Per actual operation: the slot of its block id / index, -1 when it has none. */
  actualId: Int32Array
  actualIndex: Int32Array
  /** Per expected operation: the slot of its block id / index, -1 when it has none or no actual operation aims there. */
  expectedId: Int32Array
  expectedIndex: Int32Array
}

const UNTARGETED = 0

export function targetSlots(actual: readonly Operation[], expected: readonly Operation[]): TargetSlots {
  const ids = new Map<string, number>()
  const indexes = new Map<number, number>()
  let count = 1
  const actualId = new Int32Array(actual.length).fill(-1)
  const actualIndex = new Int32Array(actual.length).fill(-1)
  for (let i = 0; i < actual.length; i++) {
    const { targetBlockId: id, targetIndex: ix } = actual[i]!
    if (id !== undefined) {
      let slot = ids.get(id)
      if (slot === undefined) ids.set(id, slot = count++)
      actualId[i] = slot
    }
    if (ix !== undefined) {
      let slot = indexes.get(ix)
      if (slot === undefined) indexes.set(ix, slot = count++)
      actualIndex[i] = slot
    }
  }
  const expectedId = new Int32Array(expected.length).fill(-1)
  const expectedIndex = new Int32Array(expected.length).fill(-1)
  for (let j = 0; j < expected.length; j++) {
    const { targetBlockId: id, targetIndex: ix } = expected[j]!
    if (id !== undefined) expectedId[j] = ids.get(id) ?? -1
    if (ix !== undefined) expectedIndex[j] = indexes.get(ix) ?? -1
  }
  return { count, actualId, actualIndex, expectedId, expectedIndex }
}

/**
 * Chains the actual operations per slot (and per kind, when `kindOf` is given) in list order:
 * `heads[slot * kinds + kind]` is the first, `next[at]` the one after. An operation with both
 * an id and an index is on two chains; its second link lives at i + n, so `at % n` is the operation.
 */
export function chainOperations(actual: readonly Operation[], slots: TargetSlots, kinds: number, kindOf: (op: Operation) => number, untargeted: boolean) {
  const n = actual.length
  const heads = new Int32Array(slots.count * kinds).fill(-1)
  const next = new Int32Array(n * 2).fill(-1)
  const link = (slot: number, kind: number, at: number) => {
    next[at] = heads[slot * kinds + kind]!
    heads[slot * kinds + kind] = at
  }
  for (let i = n - 1; i >= 0; i--) {
    const kind = kindOf(actual[i]!)
    const id = slots.actualId[i]!
    const ix = slots.actualIndex[i]!
    if (id >= 0) link(id, kind, i)
    if (ix >= 0) link(ix, kind, id >= 0 ? i + n : i)
    if (untargeted && id < 0 && ix < 0) link(UNTARGETED, kind, i)
  }
  const used = new Uint8Array(n)
  /** Takes the first unused operation of a chain, or returns false. */
  const take = (slot: number, kind: number) => {
    if (slot < 0) return false
    let head = heads[slot * kinds + kind]!
    while (head >= 0 && used[head % n]) head = next[head]!
    if (head < 0) return false
    used[head % n] = 1
    heads[slot * kinds + kind] = next[head]!
    return true
  }
  return { take }
}

/**
 * Each expected operation matches at most one actual operation with the same type and target
 * (by block id, else by index) and, for inserts, position. Linear in the number of operations:
 * actual operations are chained per (target, kind) in list order and consumed from the front.
 * An unmatched one says why: an actual operation on its target of the same type (wrong position)
 * or of another type; none on its target at all means the target is wrong.
 */
export function matchOperations(actual: readonly Operation[], expected: readonly Operation[], slots = targetSlots(actual, expected)): OperationMatch {
  const { take } = chainOperations(actual, slots, 5, kindOf, true)
  // The operation types found on each target, for the reason of a miss.
  const typesOn = new Uint8Array(slots.count)
  for (let i = 0; i < actual.length; i++) {
    const bit = TYPE_BIT[actual[i]!.type]!
    const id = slots.actualId[i]!
    const ix = slots.actualIndex[i]!
    if (id >= 0) typesOn[id]! |= bit
    if (ix >= 0) typesOn[ix]! |= bit
    if (id < 0 && ix < 0) typesOn[UNTARGETED]! |= bit
  }
  let matched = 0
  const unmatched: OperationMatch['unmatched'] = []
  expected.forEach((want, j) => {
    const slot = want.targetBlockId !== undefined ? slots.expectedId[j]! : want.targetIndex !== undefined ? slots.expectedIndex[j]! : UNTARGETED
    if (take(slot, kindOf(want))) {
      matched++
      return
    }
    const types = slot >= 0 ? typesOn[slot]! : 0
    const sameType = (types & TYPE_BIT[want.type]!) !== 0
    unmatched.push({ expected: want, reason: !types ? 'target mismatch' : sameType && want.type === 'insert' ? 'position mismatch' : sameType ? 'target mismatch' : 'type mismatch' })
  })
  return { matched, unmatched }
}

const TYPE_BIT: Record<string, number> = { insert: 1, update: 2, delete: 4, replace: 8 }
const KIND: Record<string, number> = { update: 0, delete: 1, replace: 2, insert: 3 }
/** Type and (inserts) position as one small number, 0 to 4. */
const kindOf = (op: Operation) => KIND[op.type]! + (op.type === 'insert' && op.position === 'before' ? 1 : 0)

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

/** Each block's position by its id (the last one of a repeated id). */
export function positionsById(blocks: readonly Block[]): Map<string, number> {
  const index = new Map<string, number>()
  for (let i = 0; i < blocks.length; i++) index.set(blocks[i]!.id, i)
  return index
}

/**
 * An edit scorer is one analysis of the parsed data: its score, and the rest as details. It reads
 * the output, expected and original as edit JSON, and says so (`input`).
 */
export function defineEditScorer(spec: Omit<ScorerSpec, 'analyze' | 'input'> & {
  analyze(data: EditData, options: Record<string, unknown>): { score: number } & Record<string, unknown>
}): ScorerDefinition {
  const { analyze, ...meta } = spec
  return defineScorer({ ...meta, input: 'document-edit', analyze: (actual, expected, ctx) => analyze(editData(actual, expected, ctx, meta.type), ctx.options) })
}
