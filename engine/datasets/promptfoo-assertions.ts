import { compilePattern } from '../text/safe-regex'

/**
 * promptfoo assertions as judgeflow checks: each mapped one becomes a deterministic scorer or a
 * criterion of an LLM judge, its value kept apart (it differs from test to test); the rest say why
 * they cannot be mapped.
 */

/** A promptfoo assertion, as its config gives it. */
export interface PromptfooAssertion {
  type: string
  value?: unknown
  threshold?: number
  weight?: number
  [key: string]: unknown
}

/** A scorer whose options take the assertion's value under `key` (none: the scorer needs no value). */
export interface ScorerCheck {
  kind: 'scorer'
  type: string
  options: Record<string, unknown>
  key: 'value' | 'values' | 'pattern' | 'schema' | null
  weight: number
  /** levenshtein: promptfoo's largest edit distance, turned into a similarity threshold per group of cases. */
  maxDistance?: number
}

/** An llm-rubric: one criterion of a criteria judge, its description the rubric. */
export interface RubricCheck {
  kind: 'rubric'
  weight: number
  threshold?: number
}

export type CheckTemplate = ScorerCheck | RubricCheck

export type MappedAssertion = { template: CheckTemplate, value: unknown } | { reason: string }

/** promptfoo's default largest edit distance for levenshtein. */
export const DEFAULT_MAX_DISTANCE = 5

/** The assertion types judgeflow maps, and what each becomes. */
export const MAPPED_TYPES = ['equals', 'contains', 'icontains', 'contains-all', 'icontains-all', 'starts-with', 'regex', 'is-json', 'levenshtein', 'llm-rubric'] as const

const NO_NEGATION = 'judgeflow\'s scorers pass on a score at or above a threshold and have no negated form'

/** One promptfoo assertion as a judgeflow check, its value rendered with the test's vars. */
export function mapAssertion(assertion: PromptfooAssertion, vars: Record<string, unknown>): MappedAssertion {
  const { type } = assertion
  if (type.startsWith('not-')) return { reason: NO_NEGATION }
  if (assertion.transform !== undefined) return { reason: 'it transforms the output first (transform), which judgeflow does not run' }
  const weight = typeof assertion.weight === 'number' && assertion.weight >= 0 ? assertion.weight : 1
  const value = renderVars(assertion.value, vars)
  const scorer = (scorerType: string, key: ScorerCheck['key'], options: Record<string, unknown> = {}): MappedAssertion => ({ template: { kind: 'scorer', type: scorerType, options, key, weight }, value })
  const text = typeof value === 'string' || typeof value === 'number'
  switch (type) {
    case 'equals':
      if (value === undefined || value === null) return { reason: 'it has no value' }
      return scorer('exact-match', 'value', { trim: false })
    case 'contains':
    case 'icontains':
      if (!text || value === '') return { reason: 'its value is not a text' }
      return scorer('contains', 'value', { trim: false, ...(type === 'icontains' ? { ignore_case: true } : {}) })
    case 'contains-all':
    case 'icontains-all':
      if (!Array.isArray(value) || !value.length || value.some(v => typeof v !== 'string' || !v)) return { reason: 'its value is not a list of texts' }
      return scorer('contains', 'values', { trim: false, ...(type === 'icontains-all' ? { ignore_case: true } : {}) })
    case 'starts-with':
      if (typeof value !== 'string' || !value) return { reason: 'its value is not a text' }
      return { template: { kind: 'scorer', type: 'regex', options: {}, key: 'pattern', weight }, value: `^${escapePattern(value)}` }
    case 'regex': {
      if (typeof value !== 'string' || !value) return { reason: 'its value is not a pattern' }
      try {
        compilePattern(value)
      }
      catch (error) {
        return { reason: (error as Error).message }
      }
      return scorer('regex', 'pattern')
    }
    case 'is-json':
      if (value === undefined || value === null) return scorer('json-valid', null)
      if (typeof value !== 'object' || Array.isArray(value)) return { reason: 'its schema is not a JSON Schema object' }
      return scorer('json-schema', 'schema')
    case 'levenshtein': {
      if (!text || value === '') return { reason: 'its value is not a text' }
      const maxDistance = typeof assertion.threshold === 'number' && assertion.threshold >= 0 ? assertion.threshold : DEFAULT_MAX_DISTANCE
      return { template: { kind: 'scorer', type: 'levenshtein', options: {}, key: 'value', weight, maxDistance }, value }
    }
    case 'llm-rubric':
      if (typeof value !== 'string' || !value.trim()) return { reason: 'its rubric is not a text' }
      return { template: { kind: 'rubric', weight, ...(typeof assertion.threshold === 'number' ? { threshold: assertion.threshold } : {}) }, value }
    default:
      return { reason: 'judgeflow has no equivalent' }
  }
}

/**
 * promptfoo's `levenshtein` passes when the edit distance is at most k; judgeflow's scores
 * 1 − distance / longer length. With n the shortest expected text the threshold 1 − k / n
 * passes every output promptfoo passes, and is the same check when the output is no longer
 * than the expected text.
 */
export function levenshteinThreshold(maxDistance: number, expectedTexts: readonly string[]): number {
  const shortest = Math.min(...expectedTexts.map(t => [...t].length))
  if (!Number.isFinite(shortest) || shortest === 0) return 0
  return Math.max(0, Math.round((1 - maxDistance / shortest) * 1e6) / 1e6)
}

/** `{{ var }}` (and `{{ var.field }}`) in an assertion's value, replaced by the test's vars as promptfoo renders them. */
export function renderVars(value: unknown, vars: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    return value.replace(/\{\{\s*([A-Za-z_][\w.]*)\s*\}\}/g, (whole, path: string) => {
      const found = path.split('.').reduce<unknown>((at, key) => (at && typeof at === 'object' && Object.hasOwn(at, key) ? (at as Record<string, unknown>)[key] : undefined), vars)
      return found === undefined ? whole : typeof found === 'string' ? found : JSON.stringify(found)
    })
  }
  if (Array.isArray(value)) return value.map(item => renderVars(item, vars))
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderVars(v, vars)]))
  return value
}

function escapePattern(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')
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

const CELL_TYPES = new Set([
  ...MAPPED_TYPES, 'contains-any', 'icontains-any', 'javascript', 'python', 'similar', 'rouge-n', 'bleu', 'factuality', 'model-graded-closedqa',
  'answer-relevance', 'context-faithfulness', 'context-recall', 'context-relevance', 'latency', 'cost', 'perplexity', 'webhook', 'classifier', 'moderation', 'g-eval',
])
