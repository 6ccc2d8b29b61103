/** Weights of a weighted list (criteria, metrics) that sum to 1. Pure. */

/** Rounded to three decimals, the last taking the rounding, so they sum to exactly 1. */
function summingToOne(weights: readonly number[]): number[] {
  const rounded = weights.map(w => Math.round(w * 1000) / 1000)
  if (rounded.length) rounded[rounded.length - 1] = Math.round((1 - rounded.slice(0, -1).reduce((s, w) => s + w, 0)) * 1000) / 1000
  return rounded
}

/** The weights scaled to sum to 1, in their proportions; equal when they are all 0. */
export function normalizedWeights(weights: readonly number[]): number[] {
  const total = weights.reduce((s, w) => s + w, 0)
  return summingToOne(weights.map(w => (total ? w / total : 1 / weights.length)))
}

/**
 * The weights once one more item is added (last): it gets an equal share (1/n), the others share
 * the rest in their proportions (equally when they are all 0). Still summing to 1: a list is valid
 * as each item is added, [1] → [0.5, 0.5] → [0.333, 0.333, 0.334].
 */
export function weightsWithOneMore(weights: readonly number[]): number[] {
  const n = weights.length + 1
  const rest = normalizedWeights(weights).map(w => w * (n - 1) / n)
  return summingToOne([...rest, 1 / n])
}
