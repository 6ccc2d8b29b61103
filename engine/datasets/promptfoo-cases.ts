import { assertionObstacle, splitFunction, unsupported, valueFromFile, type PromptfooAssertion } from './promptfoo-assertions'
import { ASSERTION_HANDLERS, skippedAssertion } from '../assertions/registry'
import type { Assertion } from '../assertions/types'
import { invalid } from './promptfoo-invalid'
import { fileOf, loadVar, readStructured, type ListFiles, type PromptfooTest, type ReadFile } from './promptfoo-files'
import { testGraders, withGraders } from './promptfoo-graders'
import { optionOf, outputTransform, renderAssertion, varCombinations, withFactuality, type FileValues } from './promptfoo-tests'
import type { ImportBudget } from './promptfoo-limits'
import type { DatasetCase } from './schema'
import { ASSERT_FIELD, PROMPTFOO_RESERVED_FIELDS, THRESHOLD_FIELD, TRANSFORM_FIELD } from './promptfoo-fields'

/** What a promptfoo config's tests become cases with: its defaults, the import's options, and where notes go. */
export interface CaseSources {
  tests: PromptfooTest[]
  defaults: PromptfooTest
  options: { readFile?: ReadFile, listFiles?: ListFiles, skipUnsupported?: boolean }
  maxDepth: number
  budget: ImportBudget
  notes: string[]
}

/**
 * The cases of a promptfoo config's tests: each test once per combination of its vars (a var holding
 * a list runs the test once per item, as promptfoo expands it), its assertions (the defaults' first)
 * rendered in its input. An assertion that cannot be mapped refuses the config, naming each — or,
 * with `skipUnsupported`, is kept as a marker that errors its case, and a note names it.
 */
export function promptfooCases(sources: CaseSources): DatasetCase[] {
  const { tests, defaults, options, maxDepth, budget, notes } = sources
  const ids = new Set<string>()
  const files: FileValues = (type, reference) => {
    const [file, name] = splitFunction(reference)
    const { path, text } = fileOf(file, `the ${type} assertion's value`, options.readFile)
    return valueFromFile(type, path, name, text, body => readStructured(body, `the file "${path}"`, maxDepth))
  }
  const unsupportedFound = new Map<string, Parameters<typeof unsupported>[0][number]>()
  const notInverted = new Set<string>()
  const note = (type: string, reason: string, id: string) => {
    const key = `${type}\n${reason}`
    const entry = unsupportedFound.get(key) ?? { type, count: 0, tests: [], reason }
    entry.count++
    if (!entry.tests.includes(id)) entry.tests.push(id)
    unsupportedFound.set(key, entry)
  }
  // A var holding a list of texts runs the test once per item, as promptfoo expands it (a file:// glob gives one item per file).
  const loadVars = (vars: Record<string, unknown>, where: string) => Object.fromEntries(Object.entries(vars).map(([name, value]) => [name, loadVar(value, `${where}.vars.${name}`, options, maxDepth)]))
  const expanded = tests.flatMap((test, i) => varCombinations(loadVars({ ...defaults.vars, ...test.vars }, `tests[${i}]`)).map(vars => ({ test, i, vars })))
  const cases: DatasetCase[] = expanded.map(({ test, i, vars }) => {
    const id = uniqueId(test.description?.trim() || `test-${i + 1}`, ids)
    for (const name of Object.keys(vars)) {
      if (PROMPTFOO_RESERVED_FIELDS.includes(name)) throw invalid(`test "${id}", vars.${name}: "${name}" is the input field that holds the test's assertions; rename the var`)
    }
    const factuality = { ...optionOf(defaults, 'factuality'), ...optionOf(test, 'factuality') }
    const own = testGraders((test.options as { provider?: unknown } | undefined)?.provider, `tests[${i}].options.provider`, notes)
    const transform = outputTransform(test) ?? outputTransform(defaults) ?? null
    const assert = [...(defaults.assert ?? []), ...(test.assert ?? [])].map((assertion) => {
      const obstacle = assertionObstacle(assertion as PromptfooAssertion)
      const type = String((assertion as PromptfooAssertion).type)
      if (obstacle) note(type, obstacle, id)
      if (obstacle && options.skipUnsupported) return skippedAssertion(type, obstacle)
      if (type.startsWith('not-') && ASSERTION_HANDLERS.get(type.slice(4))?.notInverted) notInverted.add(type)
      return withGraders(withFactuality(renderAssertion(assertion as PromptfooAssertion, vars, notes, files, budget), factuality), own)
    })
    const input = { ...vars, [ASSERT_FIELD]: assert, [THRESHOLD_FIELD]: test.threshold ?? null, [TRANSFORM_FIELD]: transform }
    budget.made(input, id)
    return { id, input }
  })
  if (unsupportedFound.size && !options.skipUnsupported) throw unsupported([...unsupportedFound.values()])
  for (const u of unsupportedFound.values()) notes.push(`${u.type} ×${u.count} is not run (--skip-unsupported: ${u.reason}); the ${u.tests.length === 1 ? 'case that holds it errors' : `${u.tests.length} cases that hold it error`}, never pass`)
  for (const c of cases) {
    const compared = (c.input[ASSERT_FIELD] as Assertion[]).filter(a => ASSERTION_HANDLERS.get(a.type)?.comparesOutputs)
    // promptfoo decides the first and skips any other without a word; judgeflow says so instead.
    if (compared.length > 1) throw invalid(`test "${c.id}": it has ${compared.length} ${compared[0]!.type} assertions; promptfoo decides only the first and leaves the others out, so keep one`)
  }
  for (const type of notInverted) notes.push(`${type}: promptfoo grades it as ${type.slice(4)} itself, without inverting it, and so does judgeflow, to keep your verdicts; write an llm-rubric that asks the opposite to invert it`)
  return cases
}

/** The id wanted, cut to 190 characters, with " (2)", " (3)", … after it when taken. */
export function uniqueId(wanted: string, taken: Set<string>): string {
  const base = wanted.slice(0, 190)
  let id = base
  for (let n = 2; taken.has(id); n++) id = `${base} (${n})`
  taken.add(id)
  return id
}
