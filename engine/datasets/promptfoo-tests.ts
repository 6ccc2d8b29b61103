import type { Assertion } from '../assertions/types'
import { checkedTest, type PromptfooTest } from './promptfoo-files'
import { invalid } from './promptfoo-invalid'
import { renderVars, type PromptfooAssertion } from './promptfoo-assertions'
import { gradersOf } from './promptfoo-graders'
import { MAX_REFERENCED_VALUES, refuseOversizedScenario, type ImportBudget } from './promptfoo-limits'

/**
 * A promptfoo config's tests as promptfoo expands them before it runs any: `$ref` templates resolved,
 * scenarios under each of their configs, list-valued vars into one test per combination, each
 * assertion's values rendered with the test's vars and its test's options carried along.
 */

/** A test's own `options.transform` (or its alias `postprocess`), if it has one. */
export function outputTransform(test: { options?: unknown }): string | undefined {
  const options = (test.options ?? {}) as { transform?: unknown, postprocess?: unknown }
  const code = options.transform ?? options.postprocess
  return typeof code === 'string' ? code : undefined
}

export function optionOf(test: { options?: unknown }, key: string): Record<string, unknown> {
  const value = (test.options as Record<string, unknown> | undefined)?.[key]
  return value && typeof value === 'object' ? value as Record<string, unknown> : {}
}

/** The test's `options.factuality` scores, carried by its factuality assertions (an assert-set's too). */
export function withFactuality(assertion: Assertion, scores: Record<string, unknown>): Assertion {
  if (!Object.keys(scores).length) return assertion
  if (assertion.assert) return { ...assertion, assert: assertion.assert.map(inner => withFactuality(inner, scores)) }
  return assertion.type.replace(/^not-/, '') === 'factuality' ? { ...assertion, config: { ...assertion.config, factuality: scores } } : assertion
}

/**
 * An assertion with `{{var}}` in its values rendered with the test's vars (an assert-set's own
 * assertions too); its own `provider` is its grader. `budget` counts what rendering puts in.
 */
export function renderAssertion(
  assertion: PromptfooAssertion, vars: Record<string, unknown>, notes: string[], files: FileValues, budget?: ImportBudget,
): Assertion {
  const { provider, ...rest } = assertion
  const value = typeof assertion.value === 'string' && assertion.value.startsWith('file://') ? files(assertion.type, assertion.value) : assertion.value
  const rendered = { ...rest, ...(value === undefined ? {} : { value: renderVars(value, vars, budget?.rendered) }) } as Assertion
  // promptfoo renders a metric's name with the test's vars (`{{topic}}-keyword`) before it names a score.
  if (typeof rest.metric === 'string') rendered.metric = renderVars(rest.metric, vars) as string
  if (provider !== undefined) {
    const own = gradersOf(provider, `the ${assertion.type} assertion's provider`, notes)
    if (own.text) rendered.grader = own.text
    if (own.embedding) rendered.embedding_model = own.embedding
  }
  if (Array.isArray(assertion.assert)) {
    rendered.assert = (assertion.assert as PromptfooAssertion[]).map(inner => renderAssertion(inner, vars, notes, files, budget))
  }
  return rendered
}

/** The config's `env`: names and texts, for `{{ env.NAME }}` in prompts. */
export function envOf(env: unknown): Record<string, string> {
  if (env === undefined) return {}
  if (!env || typeof env !== 'object' || Array.isArray(env)) throw invalid('the promptfoo config, env: must be an object of names and values')
  return Object.fromEntries(Object.entries(env).map(([name, value]) => [name, String(value)]))
}

/**
 * `{ $ref: '#/assertionTemplates/name' }` (any pointer into the config itself) replaced by what it
 * points to, as promptfoo dereferences its config; a reference outside the config is refused, and so
 * is a config whose references copy more than MAX_REFERENCED_VALUES values (counted as they are
 * copied: references to references would otherwise multiply a small config without end).
 */
export function resolveRefs(root: unknown): unknown {
  let copied = 0
  const walk = (value: unknown, depth: number): unknown => {
    if (depth > 20) throw invalid('the promptfoo config: $ref references nest more than 20 deep (a cycle?)')
    if (depth > 0 && ++copied > MAX_REFERENCED_VALUES) {
      throw invalid(`the promptfoo config: its $ref references copy more than ${MAX_REFERENCED_VALUES.toLocaleString('en-US')} values (references to references multiply them); write fewer references, or the values out`)
    }
    if (Array.isArray(value)) return value.map(item => walk(item, depth))
    if (!value || typeof value !== 'object') return value
    const ref = (value as { $ref?: unknown }).$ref
    if (typeof ref === 'string') {
      if (!ref.startsWith('#/')) throw invalid(`the promptfoo config: $ref "${ref}" points outside the config; only #/… references are read`)
      const target = ref.slice(2).split('/').map(part => part.replace(/~1/g, '/').replace(/~0/g, '~')).reduce<unknown>((at, key) => (at && typeof at === 'object' && Object.hasOwn(at, key) ? (at as Record<string, unknown>)[key] : undefined), root)
      if (target === undefined) throw invalid(`the promptfoo config: $ref "${ref}" points to nothing`)
      // The walk makes every array and object anew: what it returns shares nothing with the target.
      return walk(target, depth + 1)
    }
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item, depth)]))
  }
  return walk(root, 0)
}

/**
 * Each scenario's tests under each of its configs: the config's vars under the test's, its assertions
 * first; refused past the cases a dataset may hold before they are made.
 */
export function scenarioTests(
  scenarios: unknown, readTests: (items: unknown[], where: string) => PromptfooTest[], testsBefore = 0,
): PromptfooTest[] {
  if (scenarios === undefined) return []
  if (!Array.isArray(scenarios)) throw invalid('the promptfoo config, scenarios: must be a list')
  let before = testsBefore
  return scenarios.flatMap((scenario, s) => {
    const where = `scenarios[${s}]`
    if (!scenario || typeof scenario !== 'object') throw invalid(`the promptfoo config, ${where}: must be an object with config and tests`)
    const { config: variants, tests, description, ...rest } = scenario as { config?: unknown, tests?: unknown, description?: unknown }
    const other = Object.keys(rest)[0]
    if (other) throw invalid(`the promptfoo config, ${where}.${other}: not imported (judgeflow has no equivalent); remove it to import the rest`)
    void description
    if (!Array.isArray(variants) || !Array.isArray(tests)) throw invalid(`the promptfoo config, ${where}: give config and tests as lists`)
    const own = readTests(tests, `${where}.tests`)
    refuseOversizedScenario(where, variants.length, own.length, before)
    before += variants.length * own.length
    return variants.flatMap((variant, v) => {
      const base = checkedTest(variant, `${where}.config[${v}]`)
      return own.map(test => ({ ...base, ...test, vars: { ...base.vars, ...test.vars }, assert: [...(base.assert ?? []), ...(test.assert ?? [])] }))
    })
  })
}

/** An assertion's `file://` value, read. */
export type FileValues = (type: string, reference: string) => unknown

/**
 * promptfoo's expansion of a test's vars: each var holding a list of texts takes each item in turn
 * (a list of anything else is one value), every combination, earlier vars varying slowest. Its count
 * is checked before (`refuseOversizedExpansion`).
 */
export function varCombinations(vars: Record<string, unknown>): Array<Record<string, unknown>> {
  let combinations: Array<Record<string, unknown>> = [{}]
  for (const [name, value] of Object.entries(vars)) {
    const values = Array.isArray(value) && typeof value[0] === 'string' ? value : [value]
    combinations = combinations.flatMap(combination => values.map(item => ({ ...combination, [name]: item })))
  }
  return combinations
}
