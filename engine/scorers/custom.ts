import { JudgeflowError } from '../errors'
import type { ScorerContext, ScorerDefinition } from './types'
import { isScorerInput, scorerInputs, type ScorerInput } from './inputs'

type Details = Record<string, unknown>

/**
 * A scorer as users write it: `score(actual, expected)` from 0
 * to 1 and `getDetails(actual, expected)` for debugging (`details` is accepted too), on a plain
 * object or a class instance. Both also receive `{ original, options }` as a third argument.
 */
export interface CustomScorer {
  type?: string
  label?: string
  description?: string
  /** Used when a config gives no threshold; 0.5 when left out. */
  defaultThreshold?: number
  /** What it reads as the output: 'text', 'json' or 'document-edit' (inputs.ts); unknown when left out. */
  input?: ScorerInput
  score(actual: unknown, expected: unknown, ctx: ScorerContext): number
  getDetails?(actual: unknown, expected: unknown, ctx: ScorerContext): Details
  details?(actual: unknown, expected: unknown, ctx: ScorerContext): Details
}

/**
 * The registry's form of a scorer: `measure` asks `score`, then `getDetails`. Properties are read through the prototype chain and the methods
 * are called on the scorer itself, so a class instance keeps its `this` (a copy made with `...`
 * would have lost both the prototype's methods and the instance's fields).
 */
export function toDefinition(scorer: CustomScorer, fallbackType?: string, source?: string): ScorerDefinition {
  const where = source ? ` (${source})` : ''
  if (!scorer || typeof scorer !== 'object') throw new JudgeflowError('INVALID_CONFIG', `A scorer${where} must be an object or a class instance with score(actual, expected).`)
  const type = scorer.type ?? fallbackType
  const name = typeof type === 'string' && type ? `The scorer "${type}"${where}` : `A scorer${where}`
  if (typeof type !== 'string' || !type) throw new JudgeflowError('INVALID_CONFIG', `${name} needs a type: give it a \`type\` property naming it.`)
  if (typeof scorer.score !== 'function') throw new JudgeflowError('INVALID_CONFIG', `${name} has no score(actual, expected) method.`)
  const details = typeof scorer.details === 'function' ? 'details' : typeof scorer.getDetails === 'function' ? 'getDetails' : undefined
  if (!details && (scorer.details !== undefined || scorer.getDetails !== undefined)) throw new JudgeflowError('INVALID_CONFIG', `${name}: getDetails must be a method.`)
  const threshold = scorer.defaultThreshold ?? 0.5
  if (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 1)) throw new JudgeflowError('INVALID_CONFIG', `${name}: defaultThreshold must be a number from 0 to 1.`)
  if (scorer.input !== undefined && !isScorerInput(scorer.input)) throw new JudgeflowError('INVALID_CONFIG', `${name}: input must be one of ${scorerInputs.join(', ')}.`)
  return {
    type,
    input: scorer.input,
    label: typeof scorer.label === 'string' ? scorer.label : type,
    description: typeof scorer.description === 'string' ? scorer.description : '',
    defaultThreshold: threshold,
    // The interface's two calls, made one after the other on the scorer itself.
    measure: (actual, expected, ctx) => ({
      score: scorer.score(actual, expected, ctx),
      details: details ? scorer[details]!(actual, expected, ctx) : {},
    }),
  }
}
