import { codeHandlers } from './code'
import { compareHandlers } from './compare'
import { gradedHandlers } from './graded'
import { modelGradedHandlers } from './model-graded'
import { embeddingHandlers } from './similarity'
import { overlapHandlers } from './overlap'
import { responseHandlers } from './response'
import { structuredHandlers } from './structured'
import { textHandlers } from './text'
import type { Assertion, AssertionHandler } from './types'

/** Every assertion type judgeflow runs, by name; `assert-set` is the runner's own. */
export const ASSERTION_HANDLERS: ReadonlyMap<string, AssertionHandler> = new Map(
  [
    ...textHandlers, ...structuredHandlers, ...overlapHandlers, ...responseHandlers, ...codeHandlers,
    ...gradedHandlers, ...modelGradedHandlers, ...embeddingHandlers, ...compareHandlers,
  ].map(h => [h.type, h]),
)

export const ASSERT_SET = 'assert-set'

/** An assertion an import could not carry over and was told to skip: it errors the case it is in, never passes it. */
export const SKIPPED = 'skipped'

export function skippedAssertion(type: string, reason: string): Assertion {
  return { type: SKIPPED, value: { type, reason } }
}

/** `not-contains` is `contains` inverted. */
export function baseTypeOf(type: string): { baseType: string, inverse: boolean } {
  return type.startsWith('not-') ? { baseType: type.slice(4), inverse: true } : { baseType: type, inverse: false }
}

/** The handler of an assertion type, its `not-` form too; undefined for one judgeflow does not run (and for assert-set). */
export const handlerOf = (type: unknown): AssertionHandler | undefined => ASSERTION_HANDLERS.get(baseTypeOf(String(type)).baseType)

/** Whether an assertion type asks a grader model, as its handler declares (`needs`), never by its name. */
export const asksGrader = (type: unknown): boolean => handlerOf(type)?.needs === 'grader'

/** What is wrong with an assertion before it runs (its type, its value, its parts), each problem said with where it is; empty when nothing is. */
export function assertionProblems(assertion: Assertion, where: string): string[] {
  if (!assertion || typeof assertion !== 'object' || typeof assertion.type !== 'string') return [`${where}: an assertion needs a type`]
  if (assertion.type === SKIPPED) {
    const { type, reason } = (assertion.value ?? {}) as { type?: unknown, reason?: unknown }
    return [`${where}: "${String(type)}" was not imported, as judgeflow cannot run it (${String(reason)}), so the case errors rather than pass without it (--skip-unsupported)`]
  }
  if (assertion.type === ASSERT_SET) {
    if (!Array.isArray(assertion.assert) || !assertion.assert.length) return [`${where} (assert-set): needs a list of assertions under assert`]
    return assertion.assert.flatMap((inner, i) => (ASSERTION_HANDLERS.get(inner?.type)?.comparesOutputs
      ? [`${where}.assert[${i}]: "${inner.type}" compares the test's outputs with each other, so it cannot be inside an assert-set`]
      : assertionProblems(inner, `${where}.assert[${i}]`)))
  }
  const { baseType, inverse } = baseTypeOf(assertion.type)
  const handler = ASSERTION_HANDLERS.get(baseType)
  if (!handler) return [`${where}: "${assertion.type}" is not an assertion type judgeflow runs`]
  if (inverse && !handler.negatable) return [`${where}: "${baseType}" has no not- form`]
  const problems: string[] = []
  const problem = handler.check?.(assertion)
  if (problem) problems.push(`${where} (${assertion.type}): ${problem}`)
  if (assertion.weight !== undefined && (typeof assertion.weight !== 'number' || !(assertion.weight >= 0))) problems.push(`${where} (${assertion.type}): weight must be a number of at least 0`)
  if (assertion.threshold !== undefined && (typeof assertion.threshold !== 'number' || !Number.isFinite(assertion.threshold))) problems.push(`${where} (${assertion.type}): threshold must be a number`)
  if (assertion.transform !== undefined && typeof assertion.transform !== 'string') problems.push(`${where} (${assertion.type}): transform must be JavaScript code (file:// references are not read)`)
  return problems
}

/** What the assertions need beside the output, each once: a grader, a code sandbox. */
export function needsOf(list: readonly Assertion[]): Set<NonNullable<AssertionHandler['needs']>> {
  const needs = new Set<NonNullable<AssertionHandler['needs']>>()
  const walk = (items: readonly Assertion[]) => {
    for (const a of items) {
      if (a.type === ASSERT_SET) walk(a.assert ?? [])
      const handler = handlerOf(a.type)
      if (handler?.needs) needs.add(handler.needs)
      if (handler?.alsoEmbeds) needs.add('embeddings')
      if (a.transform !== undefined) needs.add('code')
    }
  }
  walk(list)
  return needs
}

/** The keys whose text is JavaScript run on an output: an assertion's, a test's, a provider's transform. */
const TRANSFORM_KEYS = new Set(['transform', 'provider_transform', 'response_transform', 'assert_transform'])

/** A workflow's node of this type calls the user's own function (engine/steps/code). */
const CODE_STEP_TYPE = 'code'

/**
 * Whether a workflow, config or cases anywhere hold code to run: a `javascript` or `python`
 * assertion (or its not- form), a transform, or a code step (a node `{ id, type: 'code' }`).
 * A walk of the whole value, so what a case's input carries counts too.
 */
export function holdsCode(value: unknown): boolean {
  const seen = new Set<object>()
  const stack: unknown[] = [value]
  while (stack.length) {
    const item = stack.pop()
    if (item === null || typeof item !== 'object' || seen.has(item)) continue
    seen.add(item)
    if (Array.isArray(item)) {
      for (const inner of item) stack.push(inner)
      continue
    }
    for (const [key, inner] of Object.entries(item)) {
      if (key === 'type' && typeof inner === 'string' && handlerOf(inner)?.needs === 'code') return true
      if (key === 'type' && inner === CODE_STEP_TYPE && 'id' in item) return true
      if (TRANSFORM_KEYS.has(key) && typeof inner === 'string' && inner.trim()) return true
      stack.push(inner)
    }
  }
  return false
}
