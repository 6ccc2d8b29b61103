import { JudgeflowError } from '../errors'
import type { z } from 'zod'

export interface ScorerContext {
  /** The data before the edit (`original` of the input), for scorers that compare against it. */
  original: unknown
  /** The scorer's `options` from the config. */
  options: Record<string, unknown>
  /** One object per evaluation: what is parsed once is shared by its scorers, and only by them. */
  run?: object
}

/** A scorer's score from 0 to 1, and what it found, for debugging. */
export interface ScorerOutcome {
  score: number
  details: Record<string, unknown>
}

/**
 * A scorer measures one quality aspect, deterministically, from 0 to 1, and says what it found,
 * from one pass over the data. Custom scorers keep their own interface,
 * `score(actual, expected)` and `getDetails(actual, expected)` (see custom.ts).
 */
export interface ScorerDefinition {
  type: string
  label: string
  description: string
  /** The threshold this scorer suggests; a config's `threshold` replaces it. */
  defaultThreshold: number
  measure(actual: unknown, expected: unknown, ctx: ScorerContext): ScorerOutcome
}

export function defineScorer(definition: ScorerDefinition): ScorerDefinition {
  return definition
}

/** Parses scorer data, naming the field and the scorer in the error. */
export function parseData<T>(schema: z.ZodType<T>, value: unknown, field: string, scorer: string): T {
  const parsed = schema.safeParse(value ?? {})
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]!
  const path = [field, ...issue.path.map(p => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))].join('').replace(/\.\[/g, '[')
  throw new JudgeflowError('INVALID_INPUT', `Scorer "${scorer}": ${path}: ${issue.message}.`)
}

/** Text of a value: a string itself, `text` or `content` of an object, else its JSON. */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value
  if (value && typeof value === 'object') {
    const v = value as { text?: unknown, content?: unknown }
    if (typeof v.text === 'string') return v.text
    if (typeof v.content === 'string') return v.content
  }
  return value === undefined || value === null ? '' : JSON.stringify(value)
}

export function ratio(part: number, total: number): number {
  return total === 0 ? 1 : Math.round((part / total) * 1e6) / 1e6
}
