import { MAX_NODES } from '../schema/workflow'
import { MAX_DATASET_CASES } from './files'
import type { PromptfooTest } from './promptfoo-files'
import { invalid } from './promptfoo-invalid'

/**
 * What a promptfoo config may expand into, counted before anything is built. promptfoo runs a test
 * once per item of each var holding a list of texts (every combination), and each of those once per
 * prompt × provider: a few kilobytes of config can ask for millions of cases. The count is
 * arithmetic (tests × the list-valued vars' lengths × cells), so a config past the limits is refused
 * without making a single case, the same by the command line and the API (both import through here).
 */

/** The most tests list-valued vars may expand a config into. */
export const MAX_EXPANDED_TESTS = 10_000
/** The most values `$ref` references may copy into the config: references to references cannot multiply a small config into a large one. */
export const MAX_REFERENCED_VALUES = 1_000_000
/** The most characters of JSON the imported cases may hold together (each cell's copy of its test counted). */
export const MAX_IMPORTED_CHARACTERS = 50_000_000

const counted = (n: number) => n.toLocaleString('en-US')
const plural = (n: number, word: string) => `${counted(n)} ${word}${n === 1 ? '' : 's'}`

/** How many values each var of a test stands for: a list of texts its items, anything else one. */
function listLengths(vars: Record<string, unknown>): Array<[string, number]> {
  return Object.entries(vars).map(([name, value]) => [name, Array.isArray(value) && typeof value[0] === 'string' ? value.length : 1])
}

/**
 * Refuses a config whose tests, expanded by their list-valued vars and run in every cell of the
 * prompts × providers grid (`cells`, 1 without a grid), make more than MAX_EXPANDED_TESTS tests or
 * MAX_DATASET_CASES cases, saying the count and where it comes from.
 */
export function refuseOversizedExpansion(
  tests: readonly PromptfooTest[], defaults: Record<string, unknown> | undefined, grid: { cells: number, prompts: number, providers: number } | undefined,
): void {
  let expanded = 0
  let largest = { index: 0, count: 0, lists: [] as Array<[string, number]> }
  tests.forEach((test, index) => {
    const lengths = listLengths({ ...defaults, ...test.vars })
    const count = lengths.reduce((product, [, length]) => product * length, 1)
    expanded += count
    if (count > largest.count) largest = { index, count, lists: lengths.filter(([, length]) => length > 1) }
  })
  const cells = grid?.cells ?? 1
  const cases = expanded * cells
  if (expanded <= MAX_EXPANDED_TESTS && cases <= MAX_DATASET_CASES) return
  const items = largest.lists.map(([name, length]) => `${plural(length, 'item')} of vars.${name}`).join(' × ')
  const from = tests.length === 1
    ? [plural(1, 'test'), ...(items ? [items] : [])].join(' × ')
    : `${plural(tests.length, 'test')}${expanded === tests.length ? '' : `, made ${counted(expanded)} by their list-valued vars, the most by tests[${largest.index}]: ${items}`}`
  if (cases > MAX_DATASET_CASES) {
    const gridText = grid && cells > 1 ? `${tests.length === 1 ? '' : ';'} × ${plural(cells, 'cell')} of ${plural(grid.prompts, 'prompt')} and ${plural(grid.providers, 'provider')}` : ''
    throw invalid(`the promptfoo config would make ${plural(cases, 'case')} (${from}${gridText}), more than the ${counted(MAX_DATASET_CASES)} cases a dataset may hold: split it into configs of fewer tests, list items, prompts or providers`)
  }
  throw invalid(`the promptfoo config's list-valued vars make ${counted(expanded)} tests (${from}), more than ${counted(MAX_EXPANDED_TESTS)}: split the config`)
}

/** The grid's workflow has an LLM step, a condition and a judge per cell (one cell: no condition) and the input: refused past MAX_NODES before it is built. */
export function refuseOversizedGrid(cells: number, prompts: number, providers: number): void {
  const steps = cells > 1 ? 1 + 3 * cells : 3
  if (steps <= MAX_NODES) return
  throw invalid(`the promptfoo config's ${plural(prompts, 'prompt')} × ${plural(providers, 'provider')} make ${plural(cells, 'cell')}, whose workflow would have ${counted(steps)} steps (an LLM step, a condition and a judge per cell), more than the ${counted(MAX_NODES)} a workflow may hold: split it into configs of fewer prompts or providers`)
}

/** Each scenario makes its configs × its tests: refused past MAX_DATASET_CASES before they are made (each test is at least one case). */
export function refuseOversizedScenario(where: string, configs: number, tests: number, before: number): void {
  const made = configs * tests
  if (before + made <= MAX_DATASET_CASES) return
  throw invalid(`the promptfoo config would make at least ${plural(before + made, 'case')} (${where}: ${plural(configs, 'config')} × ${plural(tests, 'test')}${before ? `, after ${plural(before, 'test')} before it` : ''}), more than the ${counted(MAX_DATASET_CASES)} cases a dataset may hold: split it`)
}

/** Characters counted against MAX_IMPORTED_CHARACTERS: `rendered` as a var's text is put into an assertion's value, `made` once the case is made. */
export interface ImportBudget {
  rendered(characters: number): void
  made(input: unknown, id: string): void
}

/**
 * Counts the cases' characters as they are made, each cell's copy included; refuses past
 * MAX_IMPORTED_CHARACTERS. What rendering puts into assertions is counted as it is rendered, so a
 * value repeating a long var is refused before that text is built.
 */
export function importBudget(cells: number): ImportBudget {
  let total = 0
  let renderedInCase = 0
  const check = (where: string) => {
    if (total * cells <= MAX_IMPORTED_CHARACTERS) return
    throw invalid(`the promptfoo config's cases would hold more than ${counted(MAX_IMPORTED_CHARACTERS)} characters of JSON (passed ${where}${cells > 1 ? `, each test copied into ${plural(cells, 'prompt × provider cell')}` : ''}): split it, or keep long texts out of vars and assertions`)
  }
  return {
    rendered(characters) {
      total += characters
      renderedInCase += characters
      check('while rendering an assertion\'s vars')
    },
    made(input, id) {
      total += Math.max(0, JSON.stringify(input).length - renderedInCase)
      renderedInCase = 0
      check(`at test "${id}"`)
    },
  }
}
