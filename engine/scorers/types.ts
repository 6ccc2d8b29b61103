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

/**
 * A scorer measures one quality aspect, deterministically, from 0 to 1 (scorer-design-guide):
 * `score(actual, expected)` and `details(actual, expected)` for debugging. Custom scorers
 * implement the same interface.
 */
export interface ScorerDefinition {
  type: string
  label: string
  description: string
  /** The guide's threshold for this scorer; a config's `threshold` replaces it. */
  defaultThreshold: number
  score(actual: unknown, expected: unknown, ctx: ScorerContext): number
  details(actual: unknown, expected: unknown, ctx: ScorerContext): Record<string, unknown>
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

const analyses = new WeakMap<object, WeakMap<object, Map<string, unknown>>>()

/**
 * A scorer's result computed once per evaluation and options: `score` and `details` both ask for
 * it, and the data of one evaluation does not change between them.
 */
export function oncePerRun<T>(scorer: string, ctx: ScorerContext, compute: () => T): T {
  return ctx.run && ctx.options ? analyzeOnce(scorer, ctx.run, ctx.options, compute) : compute()
}

/**
 * A scorer's analysis computed once for its data and options: `score` and `details` are called
 * back to back on the same inputs, and the analysis of 10,000 operations is not free.
 */
export function analyzeOnce<T>(scorer: string, data: object, options: object, compute: () => T): T {
  let byOptions = analyses.get(data)
  if (!byOptions) analyses.set(data, byOptions = new WeakMap())
  let byScorer = byOptions.get(options)
  if (!byScorer) byOptions.set(options, byScorer = new Map())
  if (!byScorer.has(scorer)) byScorer.set(scorer, compute())
  return byScorer.get(scorer) as T
}
