import { z } from 'zod'
import { JudgeflowError } from '../errors'
import { formatPath } from '../graph/validate'
import { DEFAULT_MAX_JSON_DEPTH } from '../text/safe-json'
import { assertionObstacle, renderVars, splitFunction, valueFromFile, type PromptfooAssertion } from './promptfoo-assertions'
import { ASSERTION_HANDLERS, needsOf } from '../assertions/registry'
import { DEFAULT_EMBEDDING_MODEL } from '../assertions/types'
import type { Assertion } from '../assertions/types'
import { checkedTest, fileOf, invalid, promptSchema, promptsOf, readStructured, testSchema, testsFromFile, type PromptfooTest, type ReadFile } from './promptfoo-files'
import { checkModelConfig, checkTestSettings, checkTopLevel, evaluateOptionsOf, responseFormatOf } from './promptfoo-settings'
import { buildPromptfooWorkflow, providerModel, type PromptfooProvider } from './promptfoo-workflow'
import { datasetCaseSchema, type DatasetCase } from './schema'

/**
 * A promptfoo config (YAML or JSON) as judgeflow data: its tests become a dataset (vars → input,
 * description → id), its assertions evaluator configs (deterministic scorers, an LLM judge for
 * llm-rubric), and its prompts × providers a workflow. Assertions that differ from test to test
 * keep their values in the case's input (`assert.<slot>`), which the evaluator references; tests
 * whose assertions differ in kind form groups, each with its own evaluators. A config with an
 * assertion that cannot be mapped is refused, naming each: none is ever dropped.
 */

export interface PromptfooImportOptions {
  /** Reads a file the config names (`file://…`), relative to the config's folder; without it such references are refused. */
  readFile?: ReadFile
  /** The judge of llm-rubric when the config names no grader (`defaultTest.options.provider`); without either, rubrics are refused. */
  judge?: string
  /** The dataset's name; else the config's description, else "promptfoo". */
  name?: string
  /** Nesting levels the config and its files may have (JUDGEFLOW_MAX_JSON_DEPTH). */
  maxDepth?: number
}

export interface UnmappedAssertions {
  type: string
  count: number
  /** The ids of the cases (tests) it came from. */
  tests: string[]
  reason: string
}

export interface ImportedEvaluator {
  id: string
  config: Record<string, unknown>
  /** How many cases it judges. */
  cases: number
}

export interface PromptfooImport {
  name: string
  cases: DatasetCase[]
  /** The evaluator that judges every case alone (its assertions are in the case's input). */
  evaluator: Record<string, unknown> | null
  evaluators: ImportedEvaluator[]
  /** Built when the config has prompts and providers. */
  workflow?: Record<string, unknown>
  /** Settings that were not imported, other than assertions. */
  notes: string[]
  /** How promptfoo would run it (evaluateOptions): repeats and calls at once, for judgeflow test. */
  run: { repeat?: number, concurrency?: number }
}

/** The case input fields the import adds beside the vars: the test's assertions, its threshold, and its cell of the prompts × providers grid. */
export const ASSERT_FIELD = 'assert'
export const THRESHOLD_FIELD = 'assert_threshold'
export const CELL_FIELD = 'cell'
export const TRANSFORM_FIELD = 'assert_transform'
const RESERVED_FIELDS = [ASSERT_FIELD, THRESHOLD_FIELD, CELL_FIELD, TRANSFORM_FIELD]

const listOf = <T extends z.ZodType>(item: T) => z.union([item, z.array(item)]).transform(v => (Array.isArray(v) ? v : [v]) as Array<z.infer<T>>)
const providerSchema = z.object({
  id: z.string(), label: z.string().optional(), config: z.record(z.string(), z.unknown()).optional(), prompts: z.unknown().optional(),
}).strict()
const configSchema = z.object({
  description: z.string().optional(),
  prompts: listOf(z.union([z.string(), promptSchema])).optional(),
  providers: listOf(z.union([z.string(), providerSchema])).optional(),
  defaultTest: testSchema.optional(),
  tests: listOf(z.unknown()).optional(),
  scenarios: z.unknown().optional(),
}).passthrough()

/** Reads a promptfoo config's text; a JudgeflowError (INVALID_INPUT) naming the field otherwise. */
export function importPromptfoo(text: string, options: PromptfooImportOptions = {}): PromptfooImport {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_JSON_DEPTH
  const parsed = configSchema.safeParse(resolveRefs(readStructured(text, 'the promptfoo config', maxDepth) ?? {}))
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw invalid(`the promptfoo config, ${formatPath(issue.path as Array<string | number>) || '(top level)'}: ${issue.message}`)
  }
  const config = parsed.data
  const notes: string[] = []
  checkTopLevel(config, notes)
  const readTests = (items: unknown[], where: string) => items.flatMap((item, i) => (typeof item === 'string' ? testsFromFile(item, `${where}[${i}]`, options.readFile, maxDepth) : [checkedTest(item, `${where}[${i}]`)]))
  // Plain tests first, then each scenario's tests under each of its configs, as promptfoo orders them.
  const tests = [...readTests(config.tests ?? [], 'tests'), ...scenarioTests(config.scenarios, readTests)]
  if (!tests.length) throw invalid('the promptfoo config has no tests: give tests with vars and assert')
  const defaults = config.defaultTest ?? {}
  checkTestSettings(defaults, 'defaultTest', notes)
  tests.forEach((test, i) => checkTestSettings(test, `tests[${i}]`, notes))
  const graders = gradersOf((defaults.options as { provider?: unknown } | undefined)?.provider, 'defaultTest.options.provider', notes)
  const grader = graders.text ?? options.judge
  tests.forEach((test, i) => {
    if (test.threshold !== undefined && (typeof test.threshold !== 'number' || !Number.isFinite(test.threshold))) throw invalid(`tests[${i}].threshold: must be a number`)
  })

  const ids = new Set<string>()
  const files: FileValues = (type, reference) => {
    const [file, name] = splitFunction(reference)
    const { path, text } = fileOf(file, `the ${type} assertion's value`, options.readFile)
    return valueFromFile(type, path, name, text, body => readStructured(body, `the file "${path}"`, maxDepth))
  }
  const unsupportedFound = new Map<string, UnmappedAssertions>()
  const notInverted = new Set<string>()
  const note = (type: string, reason: string, id: string) => {
    const key = `${type}\n${reason}`
    const entry = unsupportedFound.get(key) ?? { type, count: 0, tests: [], reason }
    entry.count++
    if (!entry.tests.includes(id)) entry.tests.push(id)
    unsupportedFound.set(key, entry)
  }
  // A var holding a list of texts runs the test once per item, as promptfoo expands it.
  const loadVars = (vars: Record<string, unknown>, where: string) => Object.fromEntries(Object.entries(vars).map(([name, value]) => [name, typeof value === 'string' && value.startsWith('file://') ? varFromFile(value, `${where}.vars.${name}`) : value]))
  const varFromFile = (reference: string, where: string): string => {
    if (/\.(c|m)?js$|\.py$|\.pdf$|\.(png|jpe?g|gif|webp|mp3|wav|m4a|mp4)$/i.test(reference)) throw invalid(`the promptfoo config, ${where}: "${reference}" runs code or holds media, which the import does not load into a var; put the text in the var`)
    const { path, text } = fileOf(reference, where, options.readFile)
    // As promptfoo loads a var: YAML as its JSON, any other file as its trimmed text.
    return /\.ya?ml$/i.test(path) ? JSON.stringify(readStructured(text, `the file "${path}"`, maxDepth)) : text.trim()
  }
  const expanded = tests.flatMap((test, i) => varCombinations(loadVars({ ...defaults.vars, ...test.vars }, `tests[${i}]`)).map(vars => ({ test, i, vars })))
  if (expanded.length > MAX_EXPANDED_TESTS) throw invalid(`the promptfoo config's list-valued vars make ${expanded.length} tests, more than ${MAX_EXPANDED_TESTS}: split the config`)
  const cases: DatasetCase[] = expanded.map(({ test, i, vars }) => {
    const id = uniqueId(test.description?.trim() || `test-${i + 1}`, ids)
    for (const name of Object.keys(vars)) {
      if (RESERVED_FIELDS.includes(name)) throw invalid(`test "${id}", vars.${name}: "${name}" is the input field that holds the test's assertions; rename the var`)
    }
    const factuality = { ...optionOf(defaults, 'factuality'), ...optionOf(test, 'factuality') }
    const own = testGraders((test.options as { provider?: unknown } | undefined)?.provider, `tests[${i}].options.provider`, notes)
    const transform = outputTransform(test) ?? outputTransform(defaults) ?? null
    const assert = [...(defaults.assert ?? []), ...(test.assert ?? [])].map((assertion) => {
      const obstacle = assertionObstacle(assertion as PromptfooAssertion)
      if (obstacle) note(String((assertion as PromptfooAssertion).type), obstacle, id)
      const type = String((assertion as PromptfooAssertion).type)
      if (type.startsWith('not-') && ASSERTION_HANDLERS.get(type.slice(4))?.notInverted) notInverted.add(type)
      return withGraders(withFactuality(renderAssertion(assertion as PromptfooAssertion, vars, notes, files), factuality), own)
    })
    return { id, input: { ...vars, [ASSERT_FIELD]: assert, [THRESHOLD_FIELD]: test.threshold ?? null, [TRANSFORM_FIELD]: transform } }
  })
  if (unsupportedFound.size) throw unsupported([...unsupportedFound.values()])
  for (const type of notInverted) notes.push(`${type}: promptfoo grades it as ${type.slice(4)} itself, without inverting it, and so does judgeflow, to keep your verdicts; write an llm-rubric that asks the opposite to invert it`)
  const all = cases.flatMap(c => c.input[ASSERT_FIELD] as Assertion[])
  if (!all.length) throw invalid('the promptfoo config has no assertions: give each test (or defaultTest) an assert list')
  const needs = needsOf(all)
  // No grader named: each cell's own provider grades (the provider of the test); without prompts and providers there is none.
  const gradedByProvider = needs.has('grader') && !grader
  if (gradedByProvider && !(config.prompts?.length && config.providers?.length)) noGrader(all)
  const judge = needs.has('grader') ? grader : undefined
  if (gradedByProvider) notes.push('no grader is named, so each prompt × provider\'s own model grades its model-graded assertions: set defaultTest.options.provider, or --grader, to choose one (promptfoo would use its own default grader)')

  for (const item of cases) {
    const checked = datasetCaseSchema.safeParse(item)
    if (!checked.success) throw invalid(`test "${item.id}": ${formatPath(checked.error.issues[0]!.path as Array<string | number>)} ${checked.error.issues[0]!.message}`)
  }
  const transformed = cases.some(c => c.input[TRANSFORM_FIELD] !== null)
  if (!transformed) for (const c of cases) delete c.input[TRANSFORM_FIELD]
  const evaluator = assertionsConfig(judge, transformed, needs.has('embeddings') ? graders.embedding ?? DEFAULT_EMBEDDING_MODEL : undefined)
  if (needs.has('embeddings') && !graders.embedding) notes.push(`similarity assertions use ${DEFAULT_EMBEDDING_MODEL}, promptfoo's default embedding model: name another with defaultTest.options.provider.embedding`)
  const name = (options.name ?? config.description ?? 'promptfoo').trim().slice(0, 200) || 'promptfoo'
  const result: PromptfooImport = {
    name,
    cases,
    evaluator,
    evaluators: [{ id: 'assertions', config: evaluator, cases: cases.length }],
    notes,
    run: evaluateOptionsOf(config.evaluateOptions, notes),
  }
  if (config.prompts?.length && config.providers?.length) {
    const prompts = config.prompts.flatMap((p, i) => {
      if (typeof p === 'object') {
        const other = Object.keys(p).find(key => !['raw', 'id', 'label', 'config'].includes(key))
        if (other) throw invalid(`the promptfoo config, prompts[${i}].${other}: not imported (judgeflow has no equivalent); remove it to import the rest`)
        checkModelConfig(p.config as Record<string, unknown> | undefined, `prompts[${i}]`, ['temperature', 'max_tokens', 'response_format'], notes)
      }
      // A prompt's own temperature and max_tokens override its providers', as promptfoo merges them.
      const own = (typeof p === 'object' ? p.config ?? {} : {}) as { temperature?: unknown, max_tokens?: unknown, response_format?: unknown }
      const format = responseFormatOf(own.response_format, `prompts[${i}]`)
      return promptsOf(p, `prompts[${i}]`, options.readFile, envOf(config.env)).map(prompt => ({
        ...prompt,
        ...(format ? { response_format: format } : {}),
        ...(typeof own.temperature === 'number' ? { temperature: own.temperature } : {}),
        ...(typeof own.max_tokens === 'number' ? { max_tokens: own.max_tokens } : {}),
      }))
    })
    const providers: PromptfooProvider[] = config.providers.map((p, i) => {
      const where = `providers[${i}]`
      if (typeof p === 'string') return { model: providerModel(p, where) }
      const { temperature, max_tokens: maxTokens, response_format: format } = p.config ?? {}
      checkModelConfig(p.config, where, ['temperature', 'max_tokens', 'response_format'], notes)
      return {
        model: providerModel(p.id, where), label: p.label, temperature: typeof temperature === 'number' ? temperature : undefined,
        response_format: responseFormatOf(format, where),
        max_tokens: typeof maxTokens === 'number' ? maxTokens : undefined, prompts: promptsOfProvider(p.prompts, prompts, where),
      }
    })
    const built = buildPromptfooWorkflow({ name, prompts, providers, vars: [...new Set(cases.flatMap(c => Object.keys(c.input)))], evaluator, latency: needs.has('latency'), cost: needs.has('cost'), gradedByProvider })
    result.workflow = built.workflow
    // The grid stays a grid: each test runs once per prompt × provider, each its own case and verdict.
    if (built.cells.length > 1) {
      result.cases = cases.flatMap(c => built.cells.map((cell, k) => ({ id: `${c.id} · ${cell}`.slice(0, 200), input: { ...c.input, [CELL_FIELD]: k + 1 }, tags: [`test:${c.id}`.slice(0, 100)] })))
      result.evaluators[0]!.cases = result.cases.length
    }
  }
  else if (config.prompts?.length || config.providers?.length) {
    notes.push('no workflow: the config needs both prompts and providers for one')
  }
  return result
}

/** The evaluator of every case: its own assertions (in its input) graded as promptfoo grades them. */
function assertionsConfig(judge: string | undefined, transformed: boolean, embedding: string | undefined): Record<string, unknown> {
  return {
    evaluation_type: 'assertions',
    ...(judge ? { model: judge } : {}),
    ...(embedding ? { embedding_model: embedding } : {}),
    assert: `{{input.${ASSERT_FIELD}}}`,
    threshold: `{{input.${THRESHOLD_FIELD}}}`,
    ...(transformed ? { transform: `{{input.${TRANSFORM_FIELD}}}` } : {}),
    vars: '{{input}}',
  }
}

/** A test's own `options.transform` (or its alias `postprocess`), if it has one. */
function outputTransform(test: { options?: unknown }): string | undefined {
  const options = (test.options ?? {}) as { transform?: unknown, postprocess?: unknown }
  const code = options.transform ?? options.postprocess
  return typeof code === 'string' ? code : undefined
}

/** The graders a test's own `options.provider` names (its model-graded and similarity assertions use them). */
function testGraders(provider: unknown, where: string, notes: string[]): { text?: string, embedding?: string } {
  return provider === undefined ? {} : gradersOf(provider, where, notes)
}

/** An assertion given its test's graders, unless it names its own (an assert-set's assertions too). */
function withGraders(assertion: Assertion, graders: { text?: string, embedding?: string }): Assertion {
  if (assertion.assert) return { ...assertion, assert: assertion.assert.map(inner => withGraders(inner, graders)) }
  return {
    ...assertion,
    ...(graders.text && !assertion.grader ? { grader: graders.text } : {}),
    ...(graders.embedding && !assertion.embedding_model ? { embedding_model: graders.embedding } : {}),
  }
}

function optionOf(test: { options?: unknown }, key: string): Record<string, unknown> {
  const value = (test.options as Record<string, unknown> | undefined)?.[key]
  return value && typeof value === 'object' ? value as Record<string, unknown> : {}
}

/** The test's `options.factuality` scores, carried by its factuality assertions (an assert-set's too). */
function withFactuality(assertion: Assertion, scores: Record<string, unknown>): Assertion {
  if (!Object.keys(scores).length) return assertion
  if (assertion.assert) return { ...assertion, assert: assertion.assert.map(inner => withFactuality(inner, scores)) }
  return assertion.type.replace(/^not-/, '') === 'factuality' ? { ...assertion, config: { ...assertion.config, factuality: scores } } : assertion
}

/** An assertion with `{{var}}` in its values rendered with the test's vars (an assert-set's own assertions too); its own `provider` is its grader. */
function renderAssertion(assertion: PromptfooAssertion, vars: Record<string, unknown>, notes: string[], files: FileValues): Assertion {
  const { provider, ...rest } = assertion
  const value = typeof assertion.value === 'string' && assertion.value.startsWith('file://') ? files(assertion.type, assertion.value) : assertion.value
  const rendered = { ...rest, ...(value === undefined ? {} : { value: renderVars(value, vars) }) } as Assertion
  if (provider !== undefined) {
    const own = gradersOf(provider, `the ${assertion.type} assertion's provider`, notes)
    if (own.text) rendered.grader = own.text
    if (own.embedding) rendered.embedding_model = own.embedding
  }
  if (Array.isArray(assertion.assert)) rendered.assert = (assertion.assert as PromptfooAssertion[]).map(inner => renderAssertion(inner, vars, notes, files))
  return rendered
}

/**
 * The graders a `provider` names: an id or `{ id }` (text and embeddings alike), or `{ text,
 * embedding }`; settings of an `{ id, config }` are noted, not imported.
 */
function gradersOf(provider: unknown, where = 'defaultTest.options.provider', notes?: string[]): { text?: string, embedding?: string } {
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

function noGrader(all: readonly Assertion[]): never {
  const graded = [...new Set(all.flatMap(function walk(a: Assertion): string[] {
    return a.assert ? a.assert.flatMap(walk) : ASSERTION_HANDLERS.get(a.type.replace(/^not-/, ''))?.needs === 'grader' ? [a.type] : []
  }))]
  throw invalid(`the promptfoo config has model-graded assertions (${graded.join(', ')}) but names no grader: set defaultTest.options.provider (for example openai:gpt-4o-mini), or give one with --grader <provider:model> (judgeflow test or judgeflow import promptfoo); --grader local:heuristic grades llm-rubric offline, by word overlap, not as a model would`)
}

/** The import is refused, naming every assertion judgeflow cannot run: a check left out would let a failing test pass. */
function unsupported(list: UnmappedAssertions[]): JudgeflowError {
  const total = list.reduce((sum, u) => sum + u.count, 0)
  const named = list.map(u => `${u.type} ×${u.count} (${u.tests.slice(0, 5).map(t => `"${t}"`).join(', ')}${u.tests.length > 5 ? `, and ${u.tests.length - 5} more` : ''}): ${u.reason}`)
  return new JudgeflowError('INVALID_INPUT', `the promptfoo config has ${total} assertion${total === 1 ? '' : 's'} judgeflow cannot run, so nothing was imported (leaving ${total === 1 ? 'it' : 'them'} out would let a test pass that promptfoo fails): ${named.join('; ')}. Remove or rewrite ${total === 1 ? 'it' : 'them'}; the README's "Coming from promptfoo" lists what is imported.`, {
    details: { unsupported: list },
  })
}

/**
 * The prompts a provider runs: all of them, or those its `prompts` names (by label, or by the
 * prompt's text or file), as promptfoo pairs them. Indexes into `prompts`; a name that matches no
 * prompt is refused.
 */
function promptsOfProvider(names: unknown, prompts: ReadonlyArray<{ label?: string, text: string, source?: string }>, where: string): number[] | undefined {
  if (names === undefined) return undefined
  const list = Array.isArray(names) ? names : [names]
  return list.flatMap((name, n) => {
    if (typeof name !== 'string') throw invalid(`the promptfoo config, ${where}.prompts[${n}]: name a prompt by its label`)
    const matches = prompts.flatMap((prompt, i) => (prompt.label === name || prompt.source === name || prompt.text === name ? [i] : []))
    if (!matches.length) throw invalid(`the promptfoo config, ${where}.prompts[${n}]: no prompt is labelled "${name}"`)
    return matches
  })
}

/** The config's `env`: names and texts, for `{{ env.NAME }}` in prompts. */
function envOf(env: unknown): Record<string, string> {
  if (env === undefined) return {}
  if (!env || typeof env !== 'object' || Array.isArray(env)) throw invalid('the promptfoo config, env: must be an object of names and values')
  return Object.fromEntries(Object.entries(env).map(([name, value]) => [name, String(value)]))
}

/**
 * `{ $ref: '#/assertionTemplates/name' }` (any pointer into the config itself) replaced by what it
 * points to, as promptfoo dereferences its config; a reference outside the config is refused.
 */
function resolveRefs(root: unknown): unknown {
  const walk = (value: unknown, depth: number): unknown => {
    if (depth > 20) throw invalid('the promptfoo config: $ref references nest more than 20 deep (a cycle?)')
    if (Array.isArray(value)) return value.map(item => walk(item, depth))
    if (!value || typeof value !== 'object') return value
    const ref = (value as { $ref?: unknown }).$ref
    if (typeof ref === 'string') {
      if (!ref.startsWith('#/')) throw invalid(`the promptfoo config: $ref "${ref}" points outside the config; only #/… references are read`)
      const target = ref.slice(2).split('/').map(part => part.replace(/~1/g, '/').replace(/~0/g, '~')).reduce<unknown>((at, key) => (at && typeof at === 'object' && Object.hasOwn(at, key) ? (at as Record<string, unknown>)[key] : undefined), root)
      if (target === undefined) throw invalid(`the promptfoo config: $ref "${ref}" points to nothing`)
      return walk(structuredClone(target), depth + 1)
    }
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item, depth)]))
  }
  return walk(root, 0)
}

/** Each scenario's tests under each of its configs: the config's vars under the test's, its assertions first. */
function scenarioTests(scenarios: unknown, readTests: (items: unknown[], where: string) => PromptfooTest[]): PromptfooTest[] {
  if (scenarios === undefined) return []
  if (!Array.isArray(scenarios)) throw invalid('the promptfoo config, scenarios: must be a list')
  return scenarios.flatMap((scenario, s) => {
    const where = `scenarios[${s}]`
    if (!scenario || typeof scenario !== 'object') throw invalid(`the promptfoo config, ${where}: must be an object with config and tests`)
    const { config: variants, tests, description, ...rest } = scenario as { config?: unknown, tests?: unknown, description?: unknown }
    const other = Object.keys(rest)[0]
    if (other) throw invalid(`the promptfoo config, ${where}.${other}: not imported (judgeflow has no equivalent); remove it to import the rest`)
    void description
    if (!Array.isArray(variants) || !Array.isArray(tests)) throw invalid(`the promptfoo config, ${where}: give config and tests as lists`)
    const own = readTests(tests, `${where}.tests`)
    return variants.flatMap((variant, v) => {
      const base = checkedTest(variant, `${where}.config[${v}]`)
      return own.map(test => ({ ...base, ...test, vars: { ...base.vars, ...test.vars }, assert: [...(base.assert ?? []), ...(test.assert ?? [])] }))
    })
  })
}

/** An assertion's `file://` value, read. */
type FileValues = (type: string, reference: string) => unknown

/** The most tests list-valued vars may expand a config into. */
export const MAX_EXPANDED_TESTS = 10_000

/**
 * promptfoo's expansion of a test's vars: each var holding a list of texts takes each item in turn
 * (a list of anything else is one value), every combination, earlier vars varying slowest.
 */
export function varCombinations(vars: Record<string, unknown>): Array<Record<string, unknown>> {
  let combinations: Array<Record<string, unknown>> = [{}]
  for (const [name, value] of Object.entries(vars)) {
    const values = Array.isArray(value) && typeof value[0] === 'string' ? value : [value]
    combinations = combinations.flatMap(combination => values.map(item => ({ ...combination, [name]: item })))
    if (combinations.length > MAX_EXPANDED_TESTS) break
  }
  return combinations
}

function uniqueId(wanted: string, taken: Set<string>): string {
  const base = wanted.slice(0, 190)
  let id = base
  for (let n = 2; taken.has(id); n++) id = `${base} (${n})`
  taken.add(id)
  return id
}
