import { z } from 'zod'
import { formatPath } from '../graph/validate'
import { DEFAULT_MAX_JSON_DEPTH } from '../text/safe-json'
import { refuseComparisons } from './promptfoo-assertions'
import { needsOf } from '../assertions/registry'
import { DEFAULT_EMBEDDING_MODEL } from '../assertions/types'
import type { Assertion } from '../assertions/types'
import { invalid } from './promptfoo-invalid'
import { checkedTest, promptSchema, promptsOf, readStructured, testSchema, testsFromFile, type ListFiles, type PromptfooTest, type ReadFile } from './promptfoo-files'
import { graderModel, gradersOf, noGrader } from './promptfoo-graders'
import { envOf, resolveRefs, scenarioTests } from './promptfoo-tests'
import { promptfooCases, uniqueId } from './promptfoo-cases'
import { importBudget, refuseOversizedExpansion, refuseOversizedGrid } from './promptfoo-limits'
import { checkModelConfig, checkTestSettings, checkTopLevel, evaluateOptionsOf, responseFormatOf } from './promptfoo-settings'
import { buildPromptfooWorkflow, promptsOfProvider, providerModel, type PromptfooProvider } from './promptfoo-workflow'
import { importHttpProvider, isHttpProvider } from './promptfoo-http'
import { importScriptProvider, isScriptProvider } from './promptfoo-scripts'
import { endpointOf, endpointsOf, gradersIn, type Endpoints } from './promptfoo-endpoints'
import { datasetCaseSchema, type DatasetCase } from './schema'
import { ASSERT_FIELD, CELL_FIELD, THRESHOLD_FIELD, TRANSFORM_FIELD } from './promptfoo-fields'

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
  /** The files a `file://` glob in a var matches, relative to the config's folder, sorted; without it such globs are refused. */
  listFiles?: ListFiles
  /** The grader of model-graded assertions (`--grader`), in place of `defaultTest.options.provider` as promptfoo takes it; with neither, refused. */
  judge?: string
  /** The dataset's name; else the config's description, else "promptfoo". */
  name?: string
  /** Nesting levels the config and its files may have (JUDGEFLOW_MAX_JSON_DEPTH). */
  maxDepth?: number
  /**
   * Imports a config with assertions judgeflow cannot run instead of refusing it: each such
   * assertion is kept as a marker that errors its case (never a pass), and a note names them.
   */
  skipUnsupported?: boolean
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
  run: { repeat?: number, concurrency?: number, delay_ms?: number, cache?: false }
  /** The endpoints its providers name (`apiBaseUrl`, `apiHost`), which judgeflow test calls them at. */
  endpoints?: Endpoints
}

export { ASSERT_FIELD, CELL_FIELD, THRESHOLD_FIELD, TRANSFORM_FIELD } from './promptfoo-fields'

const listOf = <T extends z.ZodType>(item: T) => z.union([item, z.array(item)]).transform(v => (Array.isArray(v) ? v : [v]) as Array<z.infer<T>>)
const providerSchema = z.object({
  id: z.string(), label: z.string().optional(), config: z.record(z.string(), z.unknown()).optional(), prompts: z.unknown().optional(),
  transform: z.string().min(1).refine(code => !code.startsWith('file://'), 'a file:// transform is not read; write the code inline').optional(),
}).strict()
const configSchema = z.object({
  description: z.string().optional(),
  // A map of prompts to their labels (`{ file://a.txt: A }`) is read as promptfoo reads it: one labelled prompt per entry.
  prompts: z.union([
    z.record(z.string(), z.string()).transform(map => Object.entries(map).map(([raw, label]): z.infer<typeof promptSchema> => ({ raw, label }))),
    listOf(z.union([z.string(), promptSchema])),
  ]).optional(),
  providers: listOf(z.union([z.string(), providerSchema])).optional(),
  defaultTest: testSchema.optional(),
  tests: listOf(z.unknown()).optional(),
  scenarios: z.unknown().optional(),
}).passthrough()

/** Reads a promptfoo config's text; a JudgeflowError (INVALID_INPUT) naming the field otherwise. */
export function importPromptfoo(text: string, options: PromptfooImportOptions = {}): PromptfooImport {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_JSON_DEPTH
  const config = readConfig(text, maxDepth)
  const notes: string[] = []
  checkTopLevel(config, notes)
  const tests = testsOf(config, options.readFile, maxDepth)
  const defaults = config.defaultTest ?? {}
  // The prompts × providers grid first: how many cases the config makes is known before any is made.
  const gridNotes: string[] = []
  const grid = config.prompts?.length && config.providers?.length ? promptGrid(config, options, gridNotes) : undefined
  refuseOversizedExpansion(tests, defaults.vars, grid && { cells: grid.cells, prompts: grid.prompts.length, providers: grid.providers.length })
  const budget = importBudget(grid?.cells ?? 1)
  checkTestSettings(defaults, 'defaultTest', notes)
  tests.forEach((test, i) => checkTestSettings(test, `tests[${i}]`, notes))
  const graders = gradersOf((defaults.options as { provider?: unknown } | undefined)?.provider, 'defaultTest.options.provider', notes)
  // As promptfoo's --grader: it replaces defaultTest.options.provider (a test's own provider still comes first).
  const given = options.judge === undefined ? undefined : graderModel(options.judge)
  const grader = given ?? graders.text
  if (given && graders.text && given !== graders.text) notes.push(`--grader ${options.judge} replaces defaultTest.options.provider (${graders.text}), as promptfoo's --grader does`)
  tests.forEach((test, i) => {
    if (test.threshold !== undefined && (typeof test.threshold !== 'number' || !Number.isFinite(test.threshold))) throw invalid(`tests[${i}].threshold: must be a number`)
  })
  const cases = promptfooCases({ tests, defaults, options, maxDepth, budget, notes })
  const all = cases.flatMap(c => c.input[ASSERT_FIELD] as Assertion[])
  // As promptfoo: a test without assertions passes (score 1) once its output is there; the note says so.
  const bare = cases.filter(c => !(c.input[ASSERT_FIELD] as Assertion[]).length)
  if (bare.length) notes.push(`${bare.length === cases.length ? 'no test has' : `${bare.length} of ${cases.length} tests have no`} assertions: each such test passes (score 1) when its output is produced, as promptfoo passes it; add an assert list to check the output`)
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
  if (grid) {
    notes.push(...gridNotes)
    withGrid(result, grid, { all, graders: [judge, graders.embedding], latency: needs.has('latency'), cost: needs.has('cost'), gradedByProvider })
  }
  else {
    refuseComparisons(cases, 'without prompts and providers there are no outputs to compare')
    if (config.prompts?.length || config.providers?.length) notes.push('no workflow: the config needs both prompts and providers for one')
  }
  return result
}

/** The config's text read and checked: a JudgeflowError naming the first field that is wrong. */
function readConfig(text: string, maxDepth: number): z.infer<typeof configSchema> {
  const parsed = configSchema.safeParse(resolveRefs(readStructured(text, 'the promptfoo config', maxDepth) ?? {}))
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw invalid(`the promptfoo config, ${formatPath(issue.path as Array<string | number>) || '(top level)'}: ${issue.message}`)
  }
  return parsed.data
}

/** The config's tests: plain tests first, then each scenario's tests under each of its configs, as promptfoo orders them. */
function testsOf(config: z.infer<typeof configSchema>, readFile: ReadFile | undefined, maxDepth: number): PromptfooTest[] {
  const readTests = (items: unknown[], where: string) => items.flatMap((item, i) => (typeof item === 'string' ? testsFromFile(item, `${where}[${i}]`, readFile, maxDepth) : [checkedTest(item, `${where}[${i}]`)]))
  const plain = readTests(config.tests ?? [], 'tests')
  const tests = [...plain, ...scenarioTests(config.scenarios, readTests, plain.length)]
  if (!tests.length) throw invalid('the promptfoo config has no tests: give tests with vars and assert')
  return tests
}

/**
 * The workflow of the config's prompts × providers, and the endpoints its providers name. The grid
 * stays a grid: with two cells or more, each test runs once per prompt × provider, each its own case and verdict.
 */
function withGrid(
  result: PromptfooImport, grid: ReturnType<typeof promptGrid>,
  uses: { all: Assertion[], graders: Array<string | undefined>, latency: boolean, cost: boolean, gradedByProvider: boolean },
): void {
  const { prompts, providers } = grid
  const { name, cases, evaluator, notes } = result
  const located = providers.flatMap((p, i) => (p.http || p.code ? [] : [{ model: p.model, endpoint: p.endpoint, where: `providers[${i}]` }]))
  const reached = endpointsOf(located, gradersIn(uses.all, uses.graders))
  if (Object.keys(reached.endpoints).length) result.endpoints = reached.endpoints
  notes.push(...reached.notes)
  const vars = [...new Set(cases.flatMap(c => Object.keys(c.input)))]
  const built = buildPromptfooWorkflow({
    name, prompts, providers, vars, evaluator: evaluator!, latency: uses.latency, cost: uses.cost, gradedByProvider: uses.gradedByProvider,
  })
  result.workflow = built.workflow
  if (built.cells.length < 2) refuseComparisons(cases, 'this config has one prompt and one provider, so each test has one output')
  if (built.cells.length > 1) {
    // Each cell its own case, even where two cells share a name (two prompts of one file under one label, two unlabelled providers alike).
    const cellIds = new Set<string>()
    result.cases = cases.flatMap(c => built.cells.map((cell, k) => ({ id: uniqueId(`${c.id} · ${cell}`, cellIds), input: { ...c.input, [CELL_FIELD]: k + 1 }, tags: [`test:${c.id}`.slice(0, 100)] })))
    result.evaluators[0]!.cases = result.cases.length
  }
}

/** The config's prompts and providers, read, and how many cells their grid has (each provider × the prompts it runs). */
function promptGrid(config: z.infer<typeof configSchema>, options: PromptfooImportOptions, notes: string[]) {
  const prompts = config.prompts!.flatMap((p, i) => {
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
  const providers: PromptfooProvider[] = config.providers!.map((p, i) => {
    const where = `providers[${i}]`
    const id = typeof p === 'string' ? p : p.id
    if (isHttpProvider(id.trim())) {
      const http = importHttpProvider(id.trim(), typeof p === 'string' ? undefined : p.config, where, notes)
      return {
        model: id.trim(), http, label: typeof p === 'string' ? undefined : p.label,
        prompts: typeof p === 'string' ? undefined : promptsOfProvider(p.prompts, prompts, where),
        ...(typeof p !== 'string' && p.transform ? { transform: p.transform } : {}),
      }
    }
    if (isScriptProvider(id.trim())) {
      const options = typeof p === 'string' ? { id: id.trim() } : { id: p.id, ...(p.label ? { label: p.label } : {}), config: p.config ?? {} }
      return {
        model: id.trim(), code: importScriptProvider(id.trim(), options, where), label: typeof p === 'string' ? undefined : p.label,
        prompts: typeof p === 'string' ? undefined : promptsOfProvider(p.prompts, prompts, where),
        ...(typeof p !== 'string' && p.transform ? { transform: p.transform } : {}),
      }
    }
    if (typeof p === 'string') return { model: providerModel(p, where) }
    const { temperature, max_tokens: maxTokens, response_format: format } = p.config ?? {}
    checkModelConfig(p.config, where, ['temperature', 'max_tokens', 'response_format', 'apiBaseUrl', 'apiHost'], notes)
    const endpoint = endpointOf(p.config, where)
    return {
      ...(endpoint ? { endpoint } : {}),
      model: providerModel(p.id, where), label: p.label, temperature: typeof temperature === 'number' ? temperature : undefined,
      response_format: responseFormatOf(format, where),
      max_tokens: typeof maxTokens === 'number' ? maxTokens : undefined, prompts: promptsOfProvider(p.prompts, prompts, where),
      ...(p.transform ? { transform: p.transform } : {}),
    }
  })
  const cells = providers.reduce((sum, provider) => sum + (provider.prompts ? new Set(provider.prompts).size : prompts.length), 0)
  refuseOversizedGrid(cells, prompts.length, providers.length)
  return { prompts, providers, cells }
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
