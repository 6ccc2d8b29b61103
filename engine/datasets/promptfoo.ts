import { z } from 'zod'
import { formatPath } from '../graph/validate'
import { DEFAULT_MAX_JSON_DEPTH } from '../text/safe-json'
import { levenshteinThreshold, mapAssertion, type CheckTemplate, type PromptfooAssertion, type ScorerCheck } from './promptfoo-assertions'
import { checkedTest, invalid, promptSchema, promptsOf, readStructured, testSchema, testsFromFile, type ReadFile } from './promptfoo-files'
import { buildPromptfooWorkflow, providerModel, type GroupEvaluators, type PromptfooProvider } from './promptfoo-workflow'
import { datasetCaseSchema, type DatasetCase } from './schema'

/**
 * A promptfoo config (YAML or JSON) as judgeflow data: its tests become a dataset (vars → input,
 * description → id), its assertions evaluator configs (deterministic scorers, an LLM judge for
 * llm-rubric), and its prompts × providers a workflow. Assertions that differ from test to test
 * keep their values in the case's input (`assert.<slot>`), which the evaluator references; tests
 * whose assertions differ in kind form groups, each with its own evaluators. Every assertion that
 * cannot be mapped is listed, never dropped.
 */

export interface PromptfooImportOptions {
  /** Reads a file the config names (`file://…`), relative to the config's folder; without it such references are refused. */
  readFile?: ReadFile
  /** The judge of llm-rubric when the config names no grader (`defaultTest.options.provider`). */
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
  unmapped: UnmappedAssertions[]
  /** Settings that were not imported, other than assertions. */
  notes: string[]
}

/** The case input fields the import adds beside the vars. */
export const ASSERT_FIELD = 'assert'
export const GROUP_FIELD = 'assert_group'
export const RUBRIC_GROUP_FIELD = 'rubric_group'

const listOf = <T extends z.ZodType>(item: T) => z.union([item, z.array(item)]).transform(v => (Array.isArray(v) ? v : [v]) as Array<z.infer<T>>)
const providerSchema = z.object({ id: z.string(), label: z.string().optional(), config: z.record(z.string(), z.unknown()).optional() }).passthrough()
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
  const tests = (config.tests ?? []).flatMap((item, i) => (typeof item === 'string' ? testsFromFile(item, `tests[${i}]`, options.readFile, maxDepth) : [checkedTest(item, `tests[${i}]`)]))
  if (!tests.length) throw invalid('the promptfoo config has no tests: give tests with vars and assert')
  const defaults = config.defaultTest ?? {}
  const grader = (defaults.options as { provider?: unknown } | undefined)?.provider
  const graderId = typeof grader === 'string' ? grader : (grader as { id?: unknown } | undefined)?.id
  const judge = typeof graderId === 'string' ? providerModel(graderId, 'defaultTest.options.provider') : options.judge ?? 'local:heuristic'

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
      const id = `${kind === 'scorer' ? 'checks' : 'rubric'}${routed ? `_${group}` : ''}`
      const evaluators: ImportedEvaluator[] = configs.length
        ? [{ id, config: kind === 'scorer' ? scorersConfig(configs) : rubricConfig(configs, judge), cases: members.length }]
        : []
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
    unmapped: [...unmapped.values()],
    notes,
  }
  if (config.prompts?.length && config.providers?.length) {
    const prompts = config.prompts.flatMap((p, i) => promptsOf(p, `prompts[${i}]`, options.readFile))
    const providers: PromptfooProvider[] = config.providers.map((p, i) => {
      const where = `providers[${i}]`
      if (typeof p === 'string') return { model: providerModel(p, where) }
      const { temperature, max_tokens: maxTokens, ...rest } = p.config ?? {}
      if (Object.keys(rest).length) notes.push(`${where}: config ${Object.keys(rest).join(', ')} not imported`)
      return { model: providerModel(p.id, where), label: p.label, temperature: typeof temperature === 'number' ? temperature : undefined, max_tokens: typeof maxTokens === 'number' ? maxTokens : undefined }
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

function rubricConfig(checks: SlotConfig[], judge: string): Record<string, unknown> {
  const weights = checks.map(c => c.template.weight)
  const equal = weights.every(w => w === weights[0])
  const total = weights.reduce((sum, w) => sum + w, 0) || 1
  const thresholds = checks.flatMap(c => (c.template.kind === 'rubric' && c.template.threshold !== undefined ? [c.template.threshold] : []))
  return {
    evaluation_type: 'criteria',
    model: judge,
    criteria: checks.map((c, i) => ({
      name: c.slot, description: String(c.value), ...(equal ? {} : { weight: Math.round((weights[i]! / total) * 1e6) / 1e6 }),
    })),
    // promptfoo's grader passes a rubric it judges met; a score of 0.5 is that line, unless the config sets one.
    pass_threshold: thresholds.length ? Math.max(0, Math.min(1, Math.max(...thresholds))) : 0.5,
  }
}

function uniqueId(wanted: string, taken: Set<string>): string {
  const base = wanted.slice(0, 190)
  let id = base
  for (let n = 2; taken.has(id); n++) id = `${base} (${n})`
  taken.add(id)
  return id
}
