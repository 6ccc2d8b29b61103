import { JudgeflowError } from '../errors'
import { asSentence } from '../text/sentence'
import type { z } from 'zod'
import type { ScorerInput } from './inputs'

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
  /** What it reads as the output (inputs.ts); a custom scorer that does not say is left unknown. */
  input?: ScorerInput
  measure(actual: unknown, expected: unknown, ctx: ScorerContext): ScorerOutcome
}

/** What a built-in scorer states: its analysis returns the score and, beside it, the details. */
export type ScorerSpec = Omit<ScorerDefinition, 'measure' | 'input'> & {
  /** What it reads as the output: text unless it says otherwise. */
  input?: ScorerInput
  analyze(actual: unknown, expected: unknown, ctx: ScorerContext): { score: number } & Record<string, unknown>
}

/** A built-in scorer: one analysis, its score taken out and the rest as details. */
export function defineScorer(spec: ScorerSpec): ScorerDefinition {
  const { analyze, ...meta } = spec
  return {
    ...meta,
    input: spec.input ?? 'text',
    measure(actual, expected, ctx) {
      const { score, ...details } = analyze(actual, expected, ctx)
      return { score, details }
    },
  }
}

/**
 * What a scorer compares with: the first of its options `keys` that is given, else the case's
 * expected value, as `read` takes it. When `read` finds nothing to use (undefined), the error
 * says what the scorer needs (`need`) and both places to give it.
 */
export function optionOrExpected<T>(
  options: Record<string, unknown>, expected: unknown, keys: readonly [string, ...string[]], read: (value: unknown) => T | undefined, need: string,
): T {
  const value = read(keys.map(key => options[key]).find(given => given !== undefined && given !== null) ?? expected)
  if (value === undefined) throw new JudgeflowError('INVALID_CONFIG', `${need}: options.${keys[0]} or expected.`)
  return value
}

/** Parses scorer data, naming the field and the scorer in the error. */
export function parseData<T>(schema: z.ZodType<T>, value: unknown, field: string, scorer: string): T {
  const parsed = schema.safeParse(value ?? {})
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]!
  const path = [field, ...issue.path.map(p => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))].join('').replace(/\.\[/g, '[')
  throw new JudgeflowError('INVALID_INPUT', asSentence(`Scorer "${scorer}": ${path}: ${issue.message}`))
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
