import { asksGrader } from '../assertions/registry'
import type { Assertion } from '../assertions/types'
import { invalid } from './promptfoo-invalid'
import { providerModel } from './promptfoo-workflow'

/**
 * Who grades a promptfoo config's model-graded and similarity assertions: `defaultTest.options.provider`,
 * a test's own `options.provider`, or an assertion's own `provider`, each an id, `{ id }` or
 * `{ text, embedding }`.
 */

/**
 * A grader given on the command line (`--grader`) as judgeflow calls it: promptfoo's
 * `openai:chat:<model>` and `anthropic:messages:<model>` lose their middle part, as a config's
 * provider ids do, so the API is sent `<model>`, never `chat:<model>`; any other reference is kept.
 */
export function graderModel(reference: string): string {
  return reference.trim().replace(/^(openai|anthropic):(?:chat|messages):(?=[^:])/, '$1:')
}

/** The graders a test's own `options.provider` names (its model-graded and similarity assertions use them). */
export function testGraders(provider: unknown, where: string, notes: string[]): { text?: string, embedding?: string } {
  return provider === undefined ? {} : gradersOf(provider, where, notes)
}

/** An assertion given its test's graders, unless it names its own (an assert-set's assertions too). */
export function withGraders(assertion: Assertion, graders: { text?: string, embedding?: string }): Assertion {
  if (assertion.assert) return { ...assertion, assert: assertion.assert.map(inner => withGraders(inner, graders)) }
  return {
    ...assertion,
    ...(graders.text && !assertion.grader ? { grader: graders.text } : {}),
    ...(graders.embedding && !assertion.embedding_model ? { embedding_model: graders.embedding } : {}),
  }
}

/**
 * The graders a `provider` names: an id or `{ id }` (text and embeddings alike), or `{ text,
 * embedding }`; settings of an `{ id, config }` are noted, not imported.
 */
export function gradersOf(provider: unknown, where = 'defaultTest.options.provider', notes?: string[]): { text?: string, embedding?: string } {
  if (provider === undefined) return {}
  const id = (value: unknown, at: string): string => {
    if (typeof value === 'string') return providerModel(value, at)
    if (value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string') {
      const rest = Object.keys(value).filter(key => key !== 'id')
      if (rest.length) notes?.push(`${at}: ${rest.join(', ')} not imported (the grader runs at temperature 0, its answers cached)`)
      return providerModel((value as { id: string }).id, `${at}.id`)
    }
    throw invalid(`the promptfoo config, ${at}: give the grader as a provider id ("openai:gpt-4o-mini") or { id }`)
  }
  if (provider && typeof provider === 'object' && ('text' in provider || 'embedding' in provider)) {
    const both = provider as { text?: unknown, embedding?: unknown }
    return { ...(both.text === undefined ? {} : { text: id(both.text, `${where}.text`) }), ...(both.embedding === undefined ? {} : { embedding: id(both.embedding, `${where}.embedding`) }) }
  }
  const one = id(provider, where)
  return { text: one, embedding: one }
}

export function noGrader(all: readonly Assertion[]): never {
  const graded = [...new Set(all.flatMap(function walk(a: Assertion): string[] {
    return a.assert ? a.assert.flatMap(walk) : asksGrader(a.type) ? [a.type] : []
  }))]
  throw invalid(`the promptfoo config has model-graded assertions (${graded.join(', ')}) but names no grader: set defaultTest.options.provider (for example openai:gpt-4o-mini), or give one with --grader <provider:model> (judgeflow test or judgeflow import promptfoo); --grader local:heuristic grades llm-rubric offline, by word overlap, not as a model would`)
}
