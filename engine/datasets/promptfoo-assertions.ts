import { JudgeflowError } from '../errors'
import { ASSERTION_HANDLERS, assertionProblems } from '../assertions/registry'
import type { Assertion } from '../assertions/types'
import { invalid } from './promptfoo-invalid'
import type { DatasetCase } from './schema'

/**
 * promptfoo assertions as a config gives them: each one judgeflow runs is kept as written (its
 * values rendered with the test's vars) for the assertions evaluation type; the rest say why not.
 */

/** A promptfoo assertion, as its config gives it. */
export interface PromptfooAssertion {
  type: string
  value?: unknown
  threshold?: number
  weight?: number
  [key: string]: unknown
}

/** The keys an assertion may have; any other (a per-assertion provider, rubricPrompt…) is refused, not dropped. */
const ASSERTION_KEYS = new Set(['type', 'value', 'threshold', 'weight', 'metric', 'transform', 'assert', 'config', 'provider'])

/**
 * What keeps an assertion from running as promptfoo runs it, or undefined when it runs: a type
 * judgeflow does not have, a value of the wrong kind, a setting it would have to leave out.
 */
export function assertionObstacle(assertion: PromptfooAssertion): string | undefined {
  const other = Object.keys(assertion).find(key => !ASSERTION_KEYS.has(key))
  if (other) return `its setting "${other}" is not imported (judgeflow has no equivalent)`
  if (typeof assertion.transform === 'string' && assertion.transform.startsWith('file://')) return 'its transform is a file:// reference, which is not read; write the code inline'
  const problems = assertionProblems(assertion as Assertion, 'it')
  return problems.length ? problems[0]!.replace(/^it(?: \([^)]*\))?: /, '') : undefined
}

/**
 * `{{ var }}` (and `{{ var.field }}`) in an assertion's value, replaced by the test's vars as promptfoo
 * renders them; `rendered` is told each replacement's length before the text is put together.
 */
export function renderVars(value: unknown, vars: Record<string, unknown>, rendered?: (characters: number) => void): unknown {
  if (typeof value === 'string') {
    return value.replace(/\{\{\s*([A-Za-z_][\w.]*)\s*\}\}/g, (whole, path: string) => {
      const found = path.split('.').reduce<unknown>((at, key) => (at && typeof at === 'object' && Object.hasOwn(at, key) ? (at as Record<string, unknown>)[key] : undefined), vars)
      const text = found === undefined ? whole : typeof found === 'string' ? found : JSON.stringify(found)
      rendered?.(text.length)
      return text
    })
  }
  if (Array.isArray(value)) return value.map(item => renderVars(item, vars, rendered))
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderVars(v, vars, rendered)]))
  return value
}

/**
 * The short form of an assertion in a CSV test file's `__expected` column, as promptfoo reads it:
 * `contains: text`, `not-icontains: text`, `levenshtein(3): text`, `is-json`, `grade: rubric`
 * (llm-rubric); `fn:`/`eval:` are JavaScript; anything else is `equals` the whole cell.
 */
export function assertionFromCell(cell: string): PromptfooAssertion {
  const bare = /^(not-)?(is-json|contains-json|is-sql|is-xml|is-valid-openai-tools-call)$/.exec(cell.trim())
  if (bare) return { type: `${bare[1] ?? ''}${bare[2]}` }
  const match = /^(not-)?([a-z][a-z0-9-]*)(?:\((\d+(?:\.\d+)?)\))?:\s?([\s\S]*)$/.exec(cell)
  if (match && (CELL_TYPES.has(match[2]!) || match[2] === 'grade' || match[2] === 'fn' || match[2] === 'eval')) {
    const name = match[2] === 'grade' ? 'llm-rubric' : match[2] === 'fn' || match[2] === 'eval' ? 'javascript' : match[2]!
    return { type: `${match[1] ?? ''}${name}`, value: match[4], ...(match[3] ? { threshold: Number(match[3]) } : {}) }
  }
  return { type: 'equals', value: cell }
}

/**
 * The types a cell may name: those judgeflow runs (its handlers), and promptfoo's that it does not,
 * read as named so that the import refuses them rather than compare the whole cell with `equals`.
 */
const CELL_TYPES = new Set([...ASSERTION_HANDLERS.keys(), 'perplexity', 'webhook', 'classifier', 'moderation'])

/**
 * An assertion value read from its file as promptfoo reads it: a javascript or python file becomes
 * code calling the function it names (`file://check.js:fn`; the module itself, or python's
 * `get_assert`, when none is named); a .json or .yaml value is parsed; any other text is trimmed.
 */
export function valueFromFile(type: string, file: string, name: string | undefined, text: string, parse: (text: string) => unknown): unknown {
  const base = type.replace(/^not-/, '')
  if (base === 'javascript' && /\.(c|m)?js$/i.test(file)) {
    const picked = name ? `module.exports[${JSON.stringify(name)}]` : '(typeof module.exports === \'function\' ? module.exports : module.exports.default)'
    return `const module = { exports: {} }\nconst exports = module.exports\n${text}\nconst fn = ${picked}\nif (typeof fn !== 'function') throw new Error(${JSON.stringify(`${file} does not export ${name ? `a function ${name}` : 'a function'}`)})\nreturn fn(output, context)`
  }
  if (base === 'python' && /\.py$/i.test(file)) return `${text.replace(/\s+$/, '')}\nreturn ${name ?? 'get_assert'}(output, context)`
  if (/\.(json|ya?ml)$/i.test(file)) return parse(text)
  return text.trim()
}

/** `check.js:fn` as the file and the function's name. */
export function splitFunction(path: string): [string, string | undefined] {
  const colon = path.lastIndexOf(':')
  return colon > 0 && !/[\\/]/.test(path.slice(colon)) ? [path.slice(0, colon), path.slice(colon + 1)] : [path, undefined]
}

/** The import is refused, naming every assertion judgeflow cannot run: a check left out would let a failing test pass. */
export function unsupported(list: ReadonlyArray<{ type: string, count: number, tests: string[], reason: string }>): JudgeflowError {
  const total = list.reduce((sum, u) => sum + u.count, 0)
  const named = list.map(u => `${u.type} ×${u.count} (${u.tests.slice(0, 5).map(t => `"${t}"`).join(', ')}${u.tests.length > 5 ? `, and ${u.tests.length - 5} more` : ''}): ${u.reason}`)
  return new JudgeflowError('INVALID_INPUT', `the promptfoo config has ${total} assertion${total === 1 ? '' : 's'} judgeflow cannot run, so nothing was imported (leaving ${total === 1 ? 'it' : 'them'} out would let a test pass that promptfoo fails): ${named.join('; ')}. Remove or rewrite ${total === 1 ? 'it' : 'them'}; the README's "Coming from promptfoo" lists what is imported.`, {
    details: { unsupported: list },
  })
}

/** select-best compares a test's outputs across prompts × providers: refused where a test has one output (or none). */
export function refuseComparisons(cases: readonly DatasetCase[], why: string): void {
  const found = cases.find(c => (c.input.assert as Assertion[]).some(a => ASSERTION_HANDLERS.get(a.type)?.comparesOutputs))
  if (found) throw invalid(`test "${found.id}": select-best picks the best of a test's outputs across its prompts × providers, and ${why}; give two or more prompts or providers, or grade each output on its own (llm-rubric)`)
}
