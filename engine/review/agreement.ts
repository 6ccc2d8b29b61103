/**
 * How far people agree on a review queue's labels, and what they agree on. Labels are nominal (the
 * queue's label names, or "pass" / "fail"); an item may lack some reviewers' labels.
 *
 * - Cohen's κ for two reviewers: the items both labelled; p_o the share they label alike,
 *   p_e = Σ_c p_A(c) · p_B(c) from each one's own label shares; κ = (p_o − p_e) / (1 − p_e).
 * - Fleiss' κ for more: per item with n_i ≥ 2 labels, P_i = (Σ_c n_ic² − n_i) / (n_i (n_i − 1));
 *   P̄ their mean; p_c = Σ_i n_ic / Σ_i n_i; P̄e = Σ_c p_c²; κ = (P̄ − P̄e) / (1 − P̄e). Fleiss (1971)
 *   has every item rated by the same number of people; items with fewer labels count alike here.
 * - Krippendorff's α (nominal), which takes missing labels as they are: the coincidence matrix
 *   o_ck = Σ_u (pairs of labels c, k by different reviewers within item u) / (m_u − 1) over the items
 *   with m_u ≥ 2 labels, n_c = Σ_k o_ck, n = Σ_c n_c; α = 1 − (n − 1) · Σ_{c≠k} o_ck / Σ_{c≠k} n_c n_k.
 *
 * Each comes with a bootstrap percentile 95 % interval over the items (seeded: the same labels give
 * the same interval). Null where the statistic is not defined: no item to compare, or every label
 * the same (no variation to agree beyond chance on).
 */
import { IndexSampler, percentileInterval, BOOTSTRAP_SEED, type BootstrapOptions, type Interval } from '../datasets/stats'

/** One item's labels by reviewer; a reviewer without a label on it is absent (or undefined). */
export type ItemLabels = Readonly<Record<string, string | undefined>>

export interface Measured {
  value: number | null
  ci: Interval | null
  /** The items the statistic used. */
  items: number
}

const EPSILON = 1e-12

/** The labels given on an item, reviewers without one left out. */
const given = (item: ItemLabels) => Object.values(item).filter((label): label is string => typeof label === 'string')

/** Cohen's κ between reviewers `a` and `b`, over the items both labelled. */
export function cohenKappaOf(items: readonly ItemLabels[], a: string, b: string): number | null {
  const pairs = items.flatMap(item => (typeof item[a] === 'string' && typeof item[b] === 'string' ? [[item[a], item[b]] as const] : []))
  if (!pairs.length) return null
  const n = pairs.length
  const shareA = new Map<string, number>()
  const shareB = new Map<string, number>()
  let alike = 0
  for (const [x, y] of pairs) {
    if (x === y) alike++
    shareA.set(x, (shareA.get(x) ?? 0) + 1 / n)
    shareB.set(y, (shareB.get(y) ?? 0) + 1 / n)
  }
  let chance = 0
  for (const [label, p] of shareA) chance += p * (shareB.get(label) ?? 0)
  if (chance >= 1 - EPSILON) return null
  return (alike / n - chance) / (1 - chance)
}

/** Fleiss' κ over the items with two labels or more. */
export function fleissKappaOf(items: readonly ItemLabels[]): number | null {
  let agreement = 0, counted = 0, ratings = 0
  const totals = new Map<string, number>()
  for (const item of items) {
    const labels = given(item)
    const n = labels.length
    if (n < 2) continue
    const counts = tally(labels)
    let squares = 0
    for (const [label, c] of counts) {
      squares += c * c
      totals.set(label, (totals.get(label) ?? 0) + c)
    }
    agreement += (squares - n) / (n * (n - 1))
    counted++
    ratings += n
  }
  if (!counted) return null
  let chance = 0
  for (const c of totals.values()) chance += (c / ratings) ** 2
  if (chance >= 1 - EPSILON) return null
  return (agreement / counted - chance) / (1 - chance)
}

/** Krippendorff's α for nominal labels, missing labels allowed. */
export function krippendorffAlphaNominal(items: readonly ItemLabels[]): number | null {
  // Observed coincidences off the diagonal, and each label's total n_c.
  let disagreeing = 0
  const totals = new Map<string, number>()
  for (const item of items) {
    const labels = given(item)
    const m = labels.length
    if (m < 2) continue
    const counts = tally(labels)
    for (const [c, nc] of counts) {
      // Pairs (c, k) by different reviewers: nc · (m − nc) with k ≠ c, nc · (nc − 1) with k = c; each over m − 1.
      disagreeing += (nc * (m - nc)) / (m - 1)
      totals.set(c, (totals.get(c) ?? 0) + nc)
    }
  }
  let n = 0, sumSquares = 0
  for (const nc of totals.values()) {
    n += nc
    sumSquares += nc * nc
  }
  const expectedPairs = n * n - sumSquares
  if (n < 2 || expectedPairs <= EPSILON) return null
  return 1 - ((n - 1) * disagreeing) / expectedPairs
}

/** The statistic on the items, with its bootstrap percentile 95 % interval over them. */
export function withInterval(
  items: readonly ItemLabels[], statistic: (items: readonly ItemLabels[]) => number | null, { resamples = 1000, seed = BOOTSTRAP_SEED }: BootstrapOptions = {},
): Measured {
  const value = statistic(items)
  const used = items.filter(item => given(item).length >= 2).length
  if (value === null || used < 2) return { value, ci: null, items: used }
  const sampler = new IndexSampler(seed)
  const draws = new Uint32Array(items.length)
  const values: number[] = []
  for (let r = 0; r < resamples; r++) {
    sampler.fill(draws, items.length)
    const resampled = Array.from(draws, i => items[i]!)
    const v = statistic(resampled)
    if (v !== null) values.push(v)
  }
  // Resamples with no variation have no κ: an interval drawn from too few of them would say more than the data.
  return { value, ci: values.length >= resamples / 2 ? percentileInterval(Float64Array.from(values)) : null, items: used }
}

export interface PeopleAgreement {
  reviewers: number
  /** Cohen's κ with two reviewers, Fleiss' κ with more; null with fewer than two. */
  kappa: (Measured & { kind: 'cohen' | 'fleiss' }) | null
  alpha: Measured
}

/** Agreement between people on a queue's items: κ of the kind their number calls for, and α. */
export function peopleAgreement(items: readonly ItemLabels[], options: BootstrapOptions = {}): PeopleAgreement {
  const reviewers = [...new Set(items.flatMap(item => Object.keys(item).filter(r => typeof item[r] === 'string')))].sort()
  let kappa: PeopleAgreement['kappa'] = null
  if (reviewers.length === 2) kappa = { kind: 'cohen', ...withInterval(items, list => cohenKappaOf(list, reviewers[0]!, reviewers[1]!), options) }
  else if (reviewers.length > 2) kappa = { kind: 'fleiss', ...withInterval(items, fleissKappaOf, options) }
  return { reviewers: reviewers.length, kappa, alpha: withInterval(items, krippendorffAlphaNominal, options) }
}

export type Consensus = { label: string, votes: number, of: number } | { label: null, reason: 'no labels' | 'tied', tied?: string[] }

/** The item's consensus: the label most reviewers gave; none when nobody labelled it or the top labels tie. */
export function consensusOf(item: ItemLabels): Consensus {
  const labels = given(item)
  if (!labels.length) return { label: null, reason: 'no labels' }
  const ranked = [...tally(labels)].sort((x, y) => y[1] - x[1])
  const top = ranked.filter(([, c]) => c === ranked[0]![1])
  if (top.length > 1) return { label: null, reason: 'tied', tied: top.map(([label]) => label).sort() }
  return { label: ranked[0]![0], votes: ranked[0]![1], of: labels.length }
}

function tally(labels: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>()
  for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1)
  return counts
}
