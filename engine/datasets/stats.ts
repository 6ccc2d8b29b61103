/**
 * The statistics of a dataset report: pure functions on numbers and counts, pinned by tests with
 * hand-computed values. The bootstraps draw from a seeded generator, so the same data always give
 * the same interval; they work on typed arrays and counts so 10,000 cases × 2,000 resamples stay
 * well under a second.
 */

/** The normal quantile of a two-sided 95 % interval. */
export const Z95 = 1.959964
/** The seed of every bootstrap unless one is given: a fixed number, so a report is reproducible. */
export const BOOTSTRAP_SEED = 0x5eed_1e55

export type Interval = [number, number]

/** Report figures are kept to 4 decimals. */
export const round4 = (x: number) => Math.round(x * 1e4) / 1e4
export const roundInterval = (interval: Interval | null): Interval | null => (interval === null ? null : [round4(interval[0]), round4(interval[1])])

/**
 * Wilson score interval of a proportion `successes / n`:
 * (p̂ + z²/2n ± z·√(p̂(1 − p̂)/n + z²/4n²)) / (1 + z²/n). Null when n is 0.
 */
export function wilsonInterval(successes: number, n: number, z = Z95): Interval | null {
  if (n === 0) return null
  const p = successes / n
  const z2 = z * z
  const denominator = 1 + z2 / n
  const center = (p + z2 / (2 * n)) / denominator
  const half = (z / denominator) * Math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
  // At 0 or n successes the bound is exactly 0 or 1; computed, it can miss by a rounding error.
  return [successes === 0 ? 0 : Math.max(0, center - half), successes === n ? 1 : Math.min(1, center + half)]
}

/** mulberry32's step: the next state and the 32-bit output drawn from it. */
function mulberry32Output(state: number): number {
  let t = Math.imul(state ^ (state >>> 15), state | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return (t ^ (t >>> 14)) >>> 0
}
const MULBERRY32_INCREMENT = 0x6d2b79f5

/** mulberry32: a small, fast 32-bit generator; returns uniform numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + MULBERRY32_INCREMENT) >>> 0
    return mulberry32Output(state) / 4294967296
  }
}

/**
 * Uniform indices 0…n − 1 from the mulberry32 stream of a seed (the same draws as
 * ⌊mulberry32(seed)() · n⌋), a batch at a time: the bootstraps' hot loops, without a closure
 * call per draw.
 */
export class IndexSampler {
  private state: number
  constructor(seed: number) { this.state = seed >>> 0 }

  /** Fills `out` with indices below n. */
  fill(out: Uint32Array, n: number): void {
    let state = this.state
    for (let i = 0; i < out.length; i++) {
      state = (state + MULBERRY32_INCREMENT) >>> 0
      out[i] = (mulberry32Output(state) * n) / 4294967296
    }
    this.state = state
  }
}

export interface BootstrapOptions {
  resamples?: number
  seed?: number
}

/**
 * The percentile interval of bootstrap statistics: sorted, the values at ⌊0.025·B⌋ and
 * ⌈0.975·B⌉ − 1 (0-based; for B = 2,000 the 51st and the 1,950th). Null when there are none.
 */
export function percentileInterval(statistics: Float64Array): Interval | null {
  const b = statistics.length
  if (b === 0) return null
  const sorted = statistics.slice().sort()
  return [sorted[Math.floor(0.025 * b)]!, sorted[Math.ceil(0.975 * b) - 1]!]
}

/** Bootstrap percentile 95 % interval of a mean: `resamples` (2,000) resamples of the values with replacement. */
export function bootstrapMeanInterval(values: ArrayLike<number>, { resamples = 2000, seed = BOOTSTRAP_SEED }: BootstrapOptions = {}): Interval | null {
  const n = values.length
  if (n === 0) return null
  const data = Float64Array.from(values)
  const sampler = new IndexSampler(seed)
  const draws = new Uint32Array(n)
  const means = new Float64Array(resamples)
  for (let r = 0; r < resamples; r++) {
    sampler.fill(draws, n)
    let sum = 0
    for (let i = 0; i < n; i++) sum += data[draws[i]!]!
    means[r] = sum / n
  }
  return percentileInterval(means)
}

/**
 * McNemar's exact test on the discordant pairs b and c (two-sided binomial, p = ½):
 * p = min(1, 2 · Σ_{k=0}^{min(b,c)} C(b+c, k) / 2^(b+c)); 1 when b + c = 0. The terms are kept in
 * log space (log C(n, k) built up from log C(n, k − 1)), so n in the thousands neither overflows
 * nor loses the sum to underflow.
 */
export function mcnemarExact(b: number, c: number): number {
  const n = b + c
  if (n === 0) return 1
  const k = Math.min(b, c)
  const logTerms = new Float64Array(k + 1)
  logTerms[0] = -n * Math.LN2
  for (let i = 1; i <= k; i++) logTerms[i] = logTerms[i - 1]! + Math.log(n - i + 1) - Math.log(i)
  // The terms grow with k up to n/2, so the last is the largest: factor it out.
  const largest = logTerms[k]!
  let sum = 0
  for (let i = 0; i <= k; i++) sum += Math.exp(logTerms[i]! - largest)
  return Math.min(1, 2 * Math.exp(largest + Math.log(sum)))
}

/** A 2 × 2 table of labels against judgments, keys `<expected>_<judged>`. */
export interface Confusion {
  pass_pass: number
  pass_fail: number
  fail_pass: number
  fail_fail: number
}

/**
 * Cohen's κ = (po − pe) / (1 − pe), po the observed agreement, pe the agreement expected by chance
 * from each side's marginals. When pe = 1 (both sides gave one and the same verdict to every case)
 * κ is 0/0: there is no variation to agree on, and κ is null, as it is for an empty table.
 */
export function cohenKappa(pp: number, pf: number, fp: number, ff: number): number | null {
  const n = pp + pf + fp + ff
  if (n === 0) return null
  const po = (pp + ff) / n
  const pe = ((pp + pf) / n) * ((pp + fp) / n) + ((fp + ff) / n) * ((pf + ff) / n)
  if (pe >= 1 - 1e-12) return null
  return (po - pe) / (1 - pe)
}

/**
 * Fleiss' κ of several raters' pass/fail verdicts on each subject: `subjects[i]` = [passes, fails]
 * of subject i's raters (two or more each; subjects with fewer are left out). With nᵢ raters on
 * subject i: Pᵢ = (passesᵢ(passesᵢ − 1) + failsᵢ(failsᵢ − 1)) / (nᵢ(nᵢ − 1)), P̄ their mean,
 * p_pass = Σ passesᵢ / Σ nᵢ, P̄e = p_pass² + (1 − p_pass)², κ = (P̄ − P̄e) / (1 − P̄e). Null with no
 * subject, or when P̄e = 1 (every rater gave every subject one and the same verdict).
 */
export function fleissKappa(subjects: ReadonlyArray<readonly [number, number]>): number | null {
  let agreementSum = 0, counted = 0, passes = 0, ratings = 0
  for (const [pass, fail] of subjects) {
    const n = pass + fail
    if (n < 2) continue
    agreementSum += (pass * (pass - 1) + fail * (fail - 1)) / (n * (n - 1))
    counted++
    passes += pass
    ratings += n
  }
  if (!counted) return null
  const pPass = passes / ratings
  const chance = pPass ** 2 + (1 - pPass) ** 2
  if (chance >= 1 - 1e-12) return null
  return (agreementSum / counted - chance) / (1 - chance)
}

export const kappaOf = (c: Confusion) => cohenKappa(c.pass_pass, c.pass_fail, c.fail_pass, c.fail_fail)

/** The code of a labelled case in a κ bootstrap: 0 pass_pass, 1 pass_fail, 2 fail_pass, 3 fail_fail. */
export const confusionCode = (expectedPass: boolean, judgedPass: boolean) => (expectedPass ? 0 : 2) + (judgedPass ? 0 : 1)

/**
 * Bootstrap percentile 95 % interval of κ: `resamples` (1,000) resamples of the labelled cases,
 * each a count of the four cells. Resamples whose κ is undefined (pe = 1) are left out of the
 * percentiles; null when every one is.
 */
export function bootstrapKappaInterval(codes: Uint8Array, { resamples = 1000, seed = BOOTSTRAP_SEED }: BootstrapOptions = {}): Interval | null {
  const n = codes.length
  if (n === 0) return null
  const sampler = new IndexSampler(seed)
  const draws = new Uint32Array(n)
  const kappas = new Float64Array(resamples)
  const cells = new Uint32Array(4)
  let defined = 0
  for (let r = 0; r < resamples; r++) {
    sampler.fill(draws, n)
    cells.fill(0)
    for (let i = 0; i < n; i++) cells[codes[draws[i]!]!]!++
    const kappa = cohenKappa(cells[0]!, cells[1]!, cells[2]!, cells[3]!)
    if (kappa !== null) kappas[defined++] = kappa
  }
  return percentileInterval(kappas.subarray(0, defined))
}

/** Ranks 1…n, tied values sharing the average of the ranks they span. */
export function averageRanks(values: ArrayLike<number>): Float64Array {
  const n = values.length
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => values[a]! - values[b]!)
  const ranks = new Float64Array(n)
  for (let start = 0; start < n;) {
    let end = start + 1
    while (end < n && values[order[end]!] === values[order[start]!]) end++
    const rank = (start + 1 + end) / 2
    for (let i = start; i < end; i++) ranks[order[i]!] = rank
    start = end
  }
  return ranks
}

/** Pearson's r; null when either side has no variance. */
export function pearson(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  const n = x.length
  let sx = 0, sy = 0
  for (let i = 0; i < n; i++) { sx += x[i]!; sy += y[i]! }
  const mx = sx / n, my = sy / n
  let sxy = 0, sxx = 0, syy = 0
  for (let i = 0; i < n; i++) {
    const dx = x[i]! - mx, dy = y[i]! - my
    sxy += dx * dy; sxx += dx * dx; syy += dy * dy
  }
  return sxx === 0 || syy === 0 ? null : sxy / Math.sqrt(sxx * syy)
}

/** Spearman's ρ: Pearson's r of the average ranks. Null for fewer than 3 pairs or no variance. */
export function spearman(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  if (x.length < 3 || x.length !== y.length) return null
  return pearson(averageRanks(x), averageRanks(y))
}

/** Nearest-rank percentile (p in 0–100) of values sorted ascending; null when empty. */
export function nearestRank(sorted: ArrayLike<number>, p: number): number | null {
  if (sorted.length === 0) return null
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}
