import { describe, expect, it } from 'vitest'
import {
  fleissKappa,
  averageRanks, bootstrapKappaInterval, IndexSampler, bootstrapMeanInterval, cohenKappa, confusionCode, mcnemarExact, mulberry32,
  nearestRank, percentileInterval, spearman, wilsonInterval,
} from '../../../engine/datasets/stats'

describe('Wilson score interval, z = 1.959964', () => {
  it('pins 281 of 298 by hand', () => {
    // p̂ = 281/298 = 0.942953; z² = 3.841459; 1 + z²/n = 1.012891
    // centre = (0.942953 + 3.841459/596) / 1.012891 = 0.949398 / 1.012891 = 0.937316
    // half = (1.959964 / 1.012891) · √(0.942953·0.057047/298 + 3.841459/(4·298²))
    //      = 1.935019 · √(0.000180512 + 0.0000108144) = 1.935019 · 0.0138321 = 0.026765
    // → [0.910550, 0.964081], reported rounded as [0.911, 0.964]
    const [lo, hi] = wilsonInterval(281, 298)!
    expect(lo).toBeCloseTo(0.910550, 5)
    expect(hi).toBeCloseTo(0.964081, 5)
  })
  it('stays inside [0, 1] at the extremes and is null for no cases', () => {
    // 0 of 10: centre = (z²/20) / (1 + z²/10) = 0.192073 / 1.384146 = 0.138767 = half → [0, 0.277534]
    const [lo, hi] = wilsonInterval(0, 10)!
    expect(lo).toBe(0)
    expect(hi).toBeCloseTo(0.277534, 5)
    expect(wilsonInterval(10, 10)![1]).toBe(1)
    expect(wilsonInterval(0, 0)).toBeNull()
  })
})

describe('McNemar exact test on the discordant pairs', () => {
  it('pins small b, c by hand', () => {
    // b = 1, c = 6: n = 7, 2 · (C(7,0) + C(7,1)) / 2⁷ = 2 · 8/128 = 0.125
    expect(mcnemarExact(1, 6)).toBeCloseTo(0.125, 12)
    expect(mcnemarExact(6, 1)).toBeCloseTo(0.125, 12)
    // b = 2, c = 8: 2 · (1 + 10 + 45) / 1024 = 0.109375
    expect(mcnemarExact(2, 8)).toBeCloseTo(0.109375, 12)
    // b = 0, c = 5: 2 · 1/32 = 0.0625
    expect(mcnemarExact(0, 5)).toBeCloseTo(0.0625, 12)
  })
  it('is 1 with no discordant pairs, and capped at 1', () => {
    expect(mcnemarExact(0, 0)).toBe(1)
    // b = c = 3: 2 · (1 + 6 + 15 + 20)/64 = 84/64 > 1 → 1
    expect(mcnemarExact(3, 3)).toBe(1)
  })
  it('neither overflows nor underflows into NaN for n in the thousands', () => {
    // Exact values from big-integer sums of C(n, k) / 2ⁿ.
    expect(mcnemarExact(1000, 1200)).toBeCloseTo(2.1817026407914712e-05, 12)
    expect(mcnemarExact(2000, 2100) / 0.12206497999113813).toBeCloseTo(1, 9)
    expect(mcnemarExact(3000, 3000)).toBe(1)
    expect(mcnemarExact(0, 3000)).toBe(0)
  })
})

describe('Cohen\'s κ = (po − pe) / (1 − pe)', () => {
  it('pins a small table by hand', () => {
    // expected pass: 20 judged pass, 5 judged fail; expected fail: 10 judged pass, 15 judged fail; n = 50
    // po = 35/50 = 0.7; pe = (25/50)(30/50) + (25/50)(20/50) = 0.3 + 0.2 = 0.5; κ = 0.2/0.5 = 0.4
    expect(cohenKappa(20, 5, 10, 15)).toBeCloseTo(0.4, 12)
    // The table 80/5/7/28: po = 0.9, pe = (85·87 + 35·33)/120² = 0.59375, κ = 0.30625/0.40625 = 49/65
    expect(cohenKappa(80, 5, 7, 28)).toBeCloseTo(49 / 65, 12)
  })
  it('is 1 for perfect agreement, 0 for chance, null when pe = 1 or nothing is labelled', () => {
    expect(cohenKappa(5, 0, 0, 5)).toBe(1)
    // Judge says pass to all: po = 0.5, pe = 0.5·1 + 0.5·0 = 0.5 → 0
    expect(cohenKappa(5, 0, 5, 0)).toBe(0)
    expect(cohenKappa(7, 0, 0, 0)).toBeNull()
    expect(cohenKappa(0, 0, 0, 0)).toBeNull()
  })
})

describe('Fleiss\' κ of a panel\'s pass/fail verdicts', () => {
  it('matches the formula worked by hand', () => {
    // Three judges on four runs: Pᵢ = 1, 1/3, 1, 1/3 → P̄ = 2/3; p_pass = 6/12 → P̄e = 0.5; κ = (2/3 − 0.5) / 0.5 = 1/3.
    expect(fleissKappa([[3, 0], [2, 1], [0, 3], [1, 2]])).toBeCloseTo(1 / 3, 12)
    // Two raters reduce to Scott's π: agreeing on 3 of 4, pooled p_pass = 5/8 → pₑ = 0.625² + 0.375² = 0.53125,
    // (0.75 − 0.53125) / 0.46875 = 7/15.
    expect(fleissKappa([[2, 0], [0, 2], [2, 0], [1, 1]])).toBeCloseTo(7 / 15, 12)
  })
  it('is 1 for unanimous judges on mixed runs, below 0 when they split more than chance, null with nothing to agree on', () => {
    expect(fleissKappa([[3, 0], [0, 3]])).toBe(1)
    // Every run split 1–1: P̄ = 0, P̄e = 0.5 → −1.
    expect(fleissKappa([[1, 1], [1, 1]])).toBe(-1)
    expect(fleissKappa([[3, 0], [3, 0]])).toBeNull()
    expect(fleissKappa([])).toBeNull()
    // A run with one judge says nothing of agreement and is left out.
    expect(fleissKappa([[1, 0], [3, 0], [0, 3]])).toBe(1)
  })
})

describe('Spearman\'s ρ with average ranks', () => {
  it('gives tied values the mean of their ranks', () => {
    expect([...averageRanks([10, 20, 20, 30, 20])]).toEqual([1, 3, 3, 5, 3])
  })
  it('pins a case with ties by hand', () => {
    // x = 1, 2, 2, 3, 4 → ranks 1, 2.5, 2.5, 4, 5; y = 1, 3, 2, 4, 5 → ranks 1, 3, 2, 4, 5; both means 3
    // Σdxdy = 4 + 0 + 0.5 + 1 + 4 = 9.5; Σdx² = 9.5; Σdy² = 10 → ρ = 9.5/√95 = √0.95 = 0.974679
    expect(spearman([1, 2, 2, 3, 4], [1, 3, 2, 4, 5])).toBeCloseTo(Math.sqrt(0.95), 12)
    expect(spearman([1, 2, 3], [3, 2, 1])).toBeCloseTo(-1, 12)
  })
  it('is null under three pairs or without variance', () => {
    expect(spearman([1, 2], [1, 2])).toBeNull()
    expect(spearman([1, 1, 1], [1, 2, 3])).toBeNull()
  })
})

describe('bootstraps', () => {
  it('mulberry32 repeats its sequence for a seed and stays in [0, 1)', () => {
    const a = mulberry32(42), b = mulberry32(42)
    const xs = Array.from({ length: 1000 }, () => a())
    expect(xs).toEqual(Array.from({ length: 1000 }, () => b()))
    expect(xs.every(x => x >= 0 && x < 1)).toBe(true)
    expect(mulberry32(43)()).not.toBe(xs[0])
  })
  it('draws the same indices in batches as ⌊mulberry32() · n⌋ one at a time', () => {
    const random = mulberry32(9), sampler = new IndexSampler(9)
    const first = new Uint32Array(500), second = new Uint32Array(500)
    sampler.fill(first, 37)
    sampler.fill(second, 37)
    expect([...first, ...second]).toEqual(Array.from({ length: 1000 }, () => Math.floor(random() * 37)))
  })
  it('takes the percentiles at ⌊0.025·B⌋ and ⌈0.975·B⌉ − 1', () => {
    // B = 2,000 values 0…1999 shuffled: the 51st (50) and the 1,950th (1949)
    const values = Float64Array.from({ length: 2000 }, (_, i) => (i * 7919) % 2000)
    expect(percentileInterval(values)).toEqual([50, 1949])
  })
  it('gives the same mean interval for the same data, around the mean', () => {
    const scores = Array.from({ length: 300 }, (_, i) => ((i * 37) % 100) / 100)
    const first = bootstrapMeanInterval(scores)!
    expect(bootstrapMeanInterval(scores)).toEqual(first)
    const mean = scores.reduce((s, x) => s + x, 0) / scores.length
    expect(first[0]).toBeLessThan(mean)
    expect(first[1]).toBeGreaterThan(mean)
    // The standard error is sd/√n ≈ 0.2887/17.32 = 0.0167, so the interval is about ±0.033 wide.
    expect(first[1] - first[0]).toBeGreaterThan(0.05)
    expect(first[1] - first[0]).toBeLessThan(0.08)
    expect(bootstrapMeanInterval(scores, { seed: 7 })).not.toEqual(first)
    expect(bootstrapMeanInterval([])).toBeNull()
    expect(bootstrapMeanInterval([0.4])).toEqual([0.4, 0.4])
  })
  it('gives the same κ interval for the same data, around κ', () => {
    const codes = Uint8Array.from([...Array(20).fill(confusionCode(true, true)), ...Array(5).fill(confusionCode(true, false)),
      ...Array(10).fill(confusionCode(false, true)), ...Array(15).fill(confusionCode(false, false))])
    const interval = bootstrapKappaInterval(codes)!
    expect(bootstrapKappaInterval(codes)).toEqual(interval)
    expect(interval[0]).toBeLessThan(0.4)
    expect(interval[1]).toBeGreaterThan(0.4)
    // Every resample of a one-cell table has pe = 1: no interval.
    expect(bootstrapKappaInterval(new Uint8Array(10))).toBeNull()
  })
})

it('nearest-rank percentiles', () => {
  const sorted = [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]
  // p50: ⌈0.5·10⌉ = 5th; p95: ⌈9.5⌉ = 10th
  expect([nearestRank(sorted, 50), nearestRank(sorted, 95), nearestRank([], 50)]).toEqual([500, 1000, null])
})
