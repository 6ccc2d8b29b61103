/**
 * What a call costs: the published price per million tokens of the models judgeflow knows, in US
 * dollars (input, output). A model not listed has no known price: its cost is null, never a guess.
 * A dated or versioned name (gpt-4o-mini-2024-07-18, claude-3-5-sonnet-latest) takes its family's
 * price, the longest listed name it starts with, when what follows is only numbers, `latest` or
 * `preview`: another word (gpt-4o-mni, o1-pro) is another model, never priced as a neighbour.
 * JUDGEFLOW_PRICES sets others, or other prices, for a server. Browser-safe: the workflow's validation
 * (engine/graph/models.ts) reads the known names for its "did you mean".
 */
const PER_MILLION: Record<string, readonly [number, number]> = {
  'openai:gpt-4o-mini': [0.15, 0.6],
  'openai:gpt-4o': [2.5, 10],
  'openai:gpt-4.1': [2, 8],
  'openai:gpt-4.1-mini': [0.4, 1.6],
  'openai:gpt-4.1-nano': [0.1, 0.4],
  'openai:gpt-4-turbo': [10, 30],
  'openai:gpt-4': [30, 60],
  'openai:gpt-3.5-turbo': [0.5, 1.5],
  'openai:o1': [15, 60],
  'openai:o1-mini': [1.1, 4.4],
  'openai:o3': [2, 8],
  'openai:o3-mini': [1.1, 4.4],
  'openai:o4-mini': [1.1, 4.4],
  'anthropic:claude-3-haiku': [0.25, 1.25],
  'anthropic:claude-3-5-haiku': [0.8, 4],
  'anthropic:claude-3-5-sonnet': [3, 15],
  'anthropic:claude-3-7-sonnet': [3, 15],
  'anthropic:claude-sonnet-4': [3, 15],
  'anthropic:claude-3-opus': [15, 75],
  'anthropic:claude-opus-4': [15, 75],
}

const names = Object.keys(PER_MILLION).sort((a, b) => b.length - a.length)

/** Prices set by the server's configuration (JUDGEFLOW_PRICES), per million tokens; they come before the published ones. */
let overrides: Record<string, readonly [number, number]> = {}
let overrideNames: string[] = []

/** Sets the configured prices (`provider:model` → [input, output] US dollars per million tokens), replacing any set before. */
export function setPriceOverrides(prices: Record<string, readonly [number, number]> | undefined): void {
  overrides = { ...prices }
  overrideNames = Object.keys(overrides).sort((a, b) => b.length - a.length)
}

/** What may follow a listed name in a name of the same model: a date, a version number, `latest`, `preview`. */
const SAME_MODEL_SUFFIX = /^(?:-(?:\d+|latest|preview))+$/

const matching = (list: readonly string[], modelRef: string) => list.find(known => modelRef === known || (modelRef.startsWith(`${known}-`) && SAME_MODEL_SUFFIX.test(modelRef.slice(known.length))))

/** Whether judgeflow knows a price for `provider:model`, published or configured. */
export const isPriced = (modelRef: string) => matching(overrideNames, modelRef) !== undefined || matching(names, modelRef) !== undefined

/** The names judgeflow knows a price for (published and configured), for "did you mean". */
export const pricedModels = (): string[] => [...new Set([...overrideNames, ...names])]

/** The price per token (input, output) of `provider:model`, or undefined when judgeflow knows none. */
export function priceOf(modelRef: string): { input: number, output: number } | undefined {
  const configured = matching(overrideNames, modelRef)
  const name = configured ?? matching(names, modelRef)
  if (!name) return undefined
  const [input, output] = configured ? overrides[configured]! : PER_MILLION[name]!
  return { input: input / 1e6, output: output / 1e6 }
}

/** A cost for people: $0, $0.0013 (two significant digits under a cent), $1.25. */
export const usdText = (x: number) => `$${x === 0 ? 0 : x < 0.01 ? x.toPrecision(2) : x.toFixed(2)}`

/** The cost in US dollars of a call's usage, or null when the model's price is not known. */
export function costOf(modelRef: string, usage: { input_tokens: number, output_tokens: number }): number | null {
  const price = priceOf(modelRef)
  if (!price) return null
  return Math.round((usage.input_tokens * price.input + usage.output_tokens * price.output) * 1e12) / 1e12
}
