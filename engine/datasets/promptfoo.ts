import { z } from 'zod'
import { JudgeflowError } from '../errors'
import { formatPath } from '../graph/validate'
import { DEFAULT_MAX_JSON_DEPTH } from '../text/safe-json'
import { levenshteinThreshold, mapAssertion, type CheckTemplate, type PromptfooAssertion, type ScorerCheck } from './promptfoo-assertions'
import { checkedTest, invalid, promptSchema, promptsOf, readStructured, testSchema, testsFromFile, type ReadFile } from './promptfoo-files'
import { checkModelConfig, checkTestSettings, checkTopLevel } from './promptfoo-settings'
import { buildPromptfooWorkflow, providerModel, type GroupEvaluators, type PromptfooProvider } from './promptfoo-workflow'
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
  /** The one evaluator that judges every case alone; null when the tests need several (see `evaluators`). */
  evaluator: Record<string, unknown> | null
  evaluators: ImportedEvaluator[]
  /** Built when the config has prompts and providers. */
  workflow?: Record<string, unknown>
  /** Settings that were not imported, other than assertions. */
  notes: string[]
}

/** The case input fields the import adds beside the vars. */
export const ASSERT_FIELD = 'assert'
export const GROUP_FIELD = 'assert_group'
export const RUBRIC_GROUP_FIELD = 'rubric_group'

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
  const parsed = configSchema.safeParse(readStructured(text, 'the promptfoo config', maxDepth) ?? {})
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw invalid(`the promptfoo config, ${formatPath(issue.path as Array<string | number>) || '(top level)'}: ${issue.message}`)
  }
  const config = parsed.data
  if (config.scenarios !== undefined) throw invalid('the promptfoo config, scenarios: scenarios are not imported; list their tests under tests')
  const notes: string[] = []
  checkTopLevel(config, notes)
  const tests = (config.tests ?? []).flatMap((item, i) => (typeof item === 'string' ? testsFromFile(item, `tests[${i}]`, options.readFile, maxDepth) : [checkedTest(item, `tests[${i}]`)]))
  if (!tests.length) throw invalid('the promptfoo config has no tests: give tests with vars and assert')
  const defaults = config.defaultTest ?? {}
  checkTestSettings(defaults, 'defaultTest', notes, true)
  tests.forEach((test, i) => checkTestSettings(test, `tests[${i}]`, notes, false))
  const grader = graderOf((defaults.options as { provider?: unknown } | undefined)?.provider) ?? options.judge

  const ids = new Set<string>()
  const unmapped = new Map<string, UnmappedAssertions>()
  const prepared = tests.map((test, i) => {
    const id = uniqueId(test.description?.trim() || `test-${i + 1}`, ids)
    const vars = { ...defaults.vars, ...test.vars }
    for (const [name, value] of Object.entries(vars)) {
      if (name === ASSERT_FIELD || name === GROUP_FIELD || name === RUBRIC_GROUP_FIELD) throw invalid(`test "${id}", vars.${name}: "${name}" is the input field that holds the assertions' values; rename the var`)
      if (Array.isArray(value)) throw invalid(`test "${id}", vars.${name}: a list runs the test once per item in promptfoo; write one test per value`)
    }
    if (test.threshold !== undefined) notes.push(`test "${id}": threshold ${test.threshold} (a score for the whole test) is not imported; each check has its own threshold`)
    const checks: Array<{ slot: string, template: CheckTemplate, value: unknown }> = []
    const counts = new Map<string, number>()
    for (const assertion of [...(defaults.assert ?? []), ...(test.assert ?? [])] as PromptfooAssertion[]) {
      const mapped = mapAssertion(assertion, vars)
      if ('reason' in mapped) {
        const key = `${assertion.type}\n${mapped.reason}`
        const entry = unmapped.get(key) ?? { type: assertion.type, count: 0, tests: [], reason: mapped.reason }
        entry.count++
        if (!entry.tests.includes(id)) entry.tests.push(id)
        unmapped.set(key, entry)
        continue
      }
      const base = assertion.type.replace(/-/g, '_')
      const n = (counts.get(base) ?? 0) + 1
      counts.set(base, n)
      checks.push({ slot: `${base}_${n}`, template: mapped.template, value: mapped.value })
    }
    return { id, vars, checks }
  })
  if (unmapped.size) throw unsupported([...unmapped.values()])
  const judge = grader ?? (prepared.some(p => p.checks.some(c => c.template.kind === 'rubric')) ? noGrader() : '')

  const cases: DatasetCase[] = prepared.map(p => ({ id: p.id, input: { ...p.vars } }))
  const groups: GroupEvaluators[] = []
  // Deterministic checks and rubrics are grouped apart: a rubric every test shares stays one judge.
  for (const kind of ['scorer', 'rubric'] as const) {
    const field = kind === 'scorer' ? GROUP_FIELD : RUBRIC_GROUP_FIELD
    const own = prepared.map(p => p.checks.filter(c => c.template.kind === kind))
    const keys = own.map(checks => JSON.stringify(checks.map(c => [c.slot, c.template])))
    const distinct = [...new Set(keys)]
    if (distinct.length === 1 && !own[0]!.length) continue
    const routed = distinct.length > 1
    distinct.forEach((key, index) => {
      const members = keys.flatMap((k, i) => (k === key ? [i] : []))
      const group = index + 1
      if (routed) for (const i of members) cases[i]!.input[field] = group
      const configs = own[members[0]!]!.map(({ slot, template }, c) => {
        const values = members.map(i => own[i]![c]!.value)
        if (values.every(v => JSON.stringify(v) === JSON.stringify(values[0]))) return { slot, template, value: values[0] }
        for (const i of members) ((cases[i]!.input[ASSERT_FIELD] ??= {}) as Record<string, unknown>)[slot] = own[i]![c]!.value
        return { slot, template, value: `{{input.${ASSERT_FIELD}.${slot}}}`, values }
      })
      const suffix = routed ? `_${group}` : ''
      // Each llm-rubric is its own judge, passed or failed on its own, as promptfoo grades it.
      const evaluators: ImportedEvaluator[] = !configs.length
        ? []
        : kind === 'scorer'
          ? [{ id: `checks${suffix}`, config: scorersConfig(configs), cases: members.length }]
          : configs.map((check, c) => ({ id: `rubric${configs.length > 1 ? `_${c + 1}` : ''}${suffix}`, config: rubricConfig(check, judge), cases: members.length }))
      groups.push({ field: routed ? field : null, group, evaluators })
    })
  }

  for (const item of cases) {
    const checked = datasetCaseSchema.safeParse(item)
    if (!checked.success) throw invalid(`test "${item.id}": ${formatPath(checked.error.issues[0]!.path as Array<string | number>)} ${checked.error.issues[0]!.message}`)
  }
  const evaluators = groups.flatMap(g => g.evaluators)
  if (!evaluators.length) notes.push('no assertion was mapped, so the cases have nothing to judge them')
  const name = (options.name ?? config.description ?? 'promptfoo').trim().slice(0, 200) || 'promptfoo'
  const result: PromptfooImport = {
    name,
    cases,
    evaluator: evaluators.length === 1 && evaluators[0]!.cases === cases.length ? evaluators[0]!.config : null,
    evaluators,
    notes,
  }
  if (config.prompts?.length && config.providers?.length) {
    const prompts = config.prompts.flatMap((p, i) => {
      if (typeof p === 'object') {
        const other = Object.keys(p).find(key => !['raw', 'id', 'label', 'config'].includes(key))
        if (other) throw invalid(`the promptfoo config, prompts[${i}].${other}: not imported (judgeflow has no equivalent); remove it to import the rest`)
        checkModelConfig(p.config as Record<string, unknown> | undefined, `prompts[${i}]`, [], notes)
      }
      return promptsOf(p, `prompts[${i}]`, options.readFile)
    })
    const providers: PromptfooProvider[] = config.providers.map((p, i) => {
      const where = `providers[${i}]`
      if (typeof p === 'string') return { model: providerModel(p, where) }
      const { temperature, max_tokens: maxTokens } = p.config ?? {}
      checkModelConfig(p.config, where, ['temperature', 'max_tokens'], notes)
      return {
        model: providerModel(p.id, where), label: p.label, temperature: typeof temperature === 'number' ? temperature : undefined,
        max_tokens: typeof maxTokens === 'number' ? maxTokens : undefined, prompts: promptsOfProvider(p.prompts, prompts, where),
      }
    })
    result.workflow = buildPromptfooWorkflow({ name, prompts, providers, vars: [...new Set(cases.flatMap(c => Object.keys(c.input)))], groups })
  }
  else if (config.prompts?.length || config.providers?.length) {
    notes.push('no workflow: the config needs both prompts and providers for one')
  }
  return result
}

interface SlotConfig {
  slot: string
  template: CheckTemplate
  /** The value itself when every case of the group has the same, else a reference to the case's own. */
  value: unknown
  /** Each case's own, when they differ. */
  values?: unknown[]
}

function scorersConfig(checks: SlotConfig[]): Record<string, unknown> {
  const scorers = checks.map(({ template: check, value, values }) => {
    const template = check as ScorerCheck
    const options = { ...template.options, ...(template.key ? { [template.key]: value } : {}) }
    const scorer: Record<string, unknown> = { type: template.type, weight: template.weight, options }
    if (template.maxDistance !== undefined) scorer.threshold = levenshteinThreshold(template.maxDistance, (values ?? [value]).map(v => String(v)))
    return scorer
  })
  return { evaluation_type: 'scorers', scorers }
}

function rubricConfig(check: SlotConfig, judge: string): Record<string, unknown> {
  const threshold = check.template.kind === 'rubric' ? check.template.threshold : undefined
  return {
    evaluation_type: 'criteria',
    model: judge,
    criteria: [{ name: check.slot, description: String(check.value) }],
    // promptfoo's grader passes a rubric it judges met; a score of 0.5 is that line, unless the assertion sets one.
    pass_threshold: threshold === undefined ? 0.5 : Math.max(0, Math.min(1, threshold)),
  }
}

/**
 * The grader promptfoo's `defaultTest.options.provider` names: an id, `{ id }`, or `{ text, embedding }`
 * (the text grader judges rubrics); undefined when it names none.
 */
function graderOf(provider: unknown): string | undefined {
  if (provider === undefined) return undefined
  const where = 'defaultTest.options.provider'
  const id = (value: unknown, at: string): string => {
    if (typeof value === 'string') return providerModel(value, at)
    if (value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string') return providerModel((value as { id: string }).id, `${at}.id`)
    throw invalid(`the promptfoo config, ${at}: give the grader as a provider id ("openai:gpt-4o-mini") or { id }`)
  }
  if (provider && typeof provider === 'object' && 'text' in provider) return id((provider as { text: unknown }).text, `${where}.text`)
  return id(provider, where)
}

function noGrader(): never {
  throw invalid('the promptfoo config has llm-rubric assertions but names no grader: set defaultTest.options.provider (for example openai:gpt-4o-mini), or give one when importing (judgeflow import promptfoo --judge <provider:model>; --judge local:heuristic judges offline, by word overlap, not as a model would)')
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

function uniqueId(wanted: string, taken: Set<string>): string {
  const base = wanted.slice(0, 190)
  let id = base
  for (let n = 2; taken.has(id); n++) id = `${base} (${n})`
  taken.add(id)
  return id
}
