import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { compareWithBest, convergenceOf, experimentReport } from '../../../engine/experiments/recommend'
import { judgmentSchema, testDocumentSchema } from '../../../engine/experiments/schema'
import { balanceOf, categoryRates, regressionsOf, runScore, sampleSd, stabilityOf, type VariantSummary } from '../../../engine/experiments/stats'

const example = JSON.parse(readFileSync('examples/experiment-judgments.json', 'utf8'))
const doc = testDocumentSchema.parse({ id: 'd', problems: [{ id: 'p1', category: 'main' }, { id: 'p2', category: 'main' }, { id: 'p3', category: 'subtle' }] })
const judgment = (marks: Record<string, string>, bonuses = 0, penalties = 0) => judgmentSchema.parse({
  variant: 'v', document: 'd', run: 1, problems: marks,
  bonuses: Array.from({ length: bonuses }, (_, i) => `bonus ${i}`), penalties: Array.from({ length: penalties }, (_, i) => `penalty ${i}`),
})

describe('run_score = Σ detection + 0.5 × bonuses (at most 5) − 0.5 × penalties', () => {
  it('scores ○ 1, △ 0.5, × 0; an unjudged problem counts as ×', () => {
    expect(runScore(judgment({ p1: '○', p2: '△', p3: '×' }), doc.problems)).toMatchObject({ score: 1.5, detected: 1, partial: 1, missed: 1 })
    expect(runScore(judgment({ p1: 'o', p2: 'partial' }), doc.problems)).toMatchObject({ score: 1.5, missed: 1 })
  })
  it('caps bonuses at 5 per run and does not cap penalties', () => {
    expect(runScore(judgment({ p1: '○' }, 7, 0), doc.problems)).toMatchObject({ score: 3.5, bonuses: 7, bonuses_counted: 5 })
    expect(runScore(judgment({ p1: '○' }, 5, 3), doc.problems).score).toBe(2)
    expect(runScore(judgment({}, 0, 4), doc.problems).score).toBe(-2)
  })
  it('refuses a mark it does not know, naming it', () => {
    expect(() => judgment({ p1: 'maybe' })).toThrow(/maybe.{0,2} is not a mark: use ○/)
  })
})

describe('spread, categories, balance, regressions', () => {
  it('uses the sample standard deviation (n − 1)', () => {
    expect(sampleSd([3, 1.5, 3, 2.5])).toBeCloseTo(Math.sqrt(1.5 / 3), 10)
    expect(sampleSd([4])).toBe(0)
  })
  it('labels stability by SD, boundaries inclusive: ≤ 0.5 high, ≤ 1.0 medium, else low', () => {
    expect([stabilityOf(0.5), stabilityOf(0.5001), stabilityOf(1.0), stabilityOf(1.0001)]).toEqual(['high', 'medium', 'medium', 'low'])
  })
  it('rates a category as (Σ○ + 0.5 Σ△) / (questions × runs), and balance as min / max', () => {
    const rates = categoryRates([judgment({ p1: '○', p2: '△', p3: '×' }), judgment({ p1: '○', p2: '○', p3: '△' })], [doc])
    expect(rates).toEqual({ main: 0.875, subtle: 0.25 })
    expect(balanceOf(rates)).toBeCloseTo(0.25 / 0.875, 4)
    expect(balanceOf({ a: 0, b: 0 })).toBeNull()
  })
  it('calls a drop of 0.15 or more a regression, and 0.1499 not', () => {
    expect(regressionsOf({ main: 0.5, subtle: 0.5 }, { main: 0.35, subtle: 0.3501 })).toEqual([{ category: 'main', best_rate: 0.5, variant_rate: 0.35, drop: 0.15 }])
  })
})

const summary = (over: Partial<VariantSummary>): VariantSummary => ({ runs: [], overall_mean: 5, overall_sd: 0.4, stability: 'high', doc_means: {}, cross_doc_gap: 0.5, category_rates: { main: 0.8, subtle: 0.6 }, balance: 0.75, ...over })
const best = summary({})

describe('the recommendation table', () => {
  it('adopts a variant more than 1.0 better with a gap under 1.5 and no regression', () => {
    expect(compareWithBest('v2', summary({ overall_mean: 6.2, cross_doc_gap: 1.4 }), best)).toMatchObject({ raw_mean_diff: 1.2, adjusted_diff: 1.2, decision: 'variant' })
  })
  it('puts exactly 1.0 and exactly 0.5 in the 0.5–1.0 band, where the lower SD wins', () => {
    expect(compareWithBest('v2', summary({ overall_mean: 6.0, overall_sd: 0.3 }), best)).toMatchObject({ adjusted_diff: 1, decision: 'variant' })
    expect(compareWithBest('v2', summary({ overall_mean: 6.0, overall_sd: 0.6 }), best)).toMatchObject({ adjusted_diff: 1, decision: 'current_best' })
    expect(compareWithBest('v2', summary({ overall_mean: 5.5, overall_sd: 0.3 }), best).decision).toBe('variant')
    expect(compareWithBest('v2', summary({ overall_mean: 5.5, overall_sd: 0.4 }), best).reason).toContain('at least as steady')
  })
  it('keeps the current best under 0.5', () => {
    expect(compareWithBest('v2', summary({ overall_mean: 5.49, overall_sd: 0.1 }), best)).toMatchObject({ decision: 'current_best' })
  })
  it('keeps the current best on any regression, subtracting 1.5 × the drops, and names them', () => {
    const result = compareWithBest('v2', summary({ overall_mean: 7.5, category_rates: { main: 0.9, subtle: 0.4 } }), best)
    expect(result).toMatchObject({ raw_mean_diff: 2.5, adjusted_diff: 2.2, decision: 'current_best' })
    expect(result.reason).toContain('subtle fell from 0.6 to 0.4 (−0.2)')
  })
  it('keeps the current best in the case the table leaves open (> 1.0 but a gap of 1.5 or more), saying why', () => {
    const result = compareWithBest('v2', summary({ overall_mean: 6.5, cross_doc_gap: 1.5 }), best)
    expect(result.decision).toBe('current_best')
    expect(result.reason).toContain('does not cover this case')
  })
})

describe('a judgments file with mistakes', () => {
  it('names each bad field by its path', () => {
    const bad = structuredClone(example)
    bad.judgments[2].problems.B2 = 'maybe'
    delete bad.current_best
    expect(() => experimentReport(bad)).toThrow('the judgments have problems: current_best: ')
    expect(() => experimentReport(bad)).toThrow(/judgments\[2\]\.problems\.B2\.mark: "maybe" is not a mark/)
  })
  it('is a user error, not a crash, when the current best has no judgments or a judgment names another document', () => {
    const noBest = { ...example, judgments: example.judgments.filter((j: { variant: string }) => j.variant !== example.current_best) }
    expect(() => experimentReport(noBest)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringContaining(`current_best "${example.current_best}" has no judgments`) }))
    const otherDocument = structuredClone(example)
    otherDocument.judgments[0].document = 'memo'
    expect(() => experimentReport(otherDocument)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringContaining('document "memo" is not among the documents') }))
  })
  it('takes the words of Object (constructor, __proto__) for neither a mark nor a problem id', () => {
    expect(() => judgment({ p1: 'constructor' })).toThrow(/constructor.{0,2} is not a mark/)
    expect(testDocumentSchema.safeParse({ id: 'd', problems: [{ id: '__proto__', category: 'main' }] }).error?.issues[0]).toMatchObject({ path: ['problems', 0, 'id'], message: 'is a reserved name' })
    const constructorDoc = testDocumentSchema.parse({ id: 'd', problems: [{ id: 'constructor', category: 'constructor' }] })
    expect(runScore(judgment({}), constructorDoc.problems)).toMatchObject({ score: 0, missed: 1 })
    expect(categoryRates([judgment({ constructor: '○' })], [constructorDoc])).toEqual({ constructor: 1 })
    expect(regressionsOf({ constructor: 1 }, {})).toEqual([{ category: 'constructor', best_rate: 1, variant_rate: 0, drop: 1 }])
  })
})

describe('convergence', () => {
  it('three rounds in a row improving by less than 0.5 may have converged; otherwise continue', () => {
    expect(convergenceOf([0.8, 0.3, 0.2, 0.1]).state).toBe('may_have_converged')
    expect(convergenceOf([0.3, 0.2]).state).toBe('continue')
    expect(convergenceOf([0.3, 0.6, 0.1, 0.2]).state).toBe('continue')
    expect(convergenceOf([0.1, 0.5, 0.2]).state).toBe('continue')
  })
})

describe('the report of the example file, computed by hand', () => {
  const report = experimentReport(example)
  it('summarizes the current best: scores 3, 1.5, 3, 2.5', () => {
    const v1 = report.variants.v1!
    expect(v1.runs.map(r => r.score)).toEqual([3, 1.5, 3, 2.5])
    expect(v1).toMatchObject({ overall_mean: 2.5, overall_sd: 0.7071, stability: 'medium', doc_means: { 'contract-review': 2.25, 'api-spec-review': 2.75 }, cross_doc_gap: 0.5 })
    expect(v1.category_rates).toEqual({ main: 0.9375, adjacent: 0.5, subtle: 0.125 })
    expect(v1.balance).toBe(0.1333)
  })
  it('summarizes the variant, with the bonus cap: scores 5.5, 3.5, 3.5, 3.5', () => {
    const v2 = report.variants.v2!
    expect(v2.runs.map(r => r.score)).toEqual([5.5, 3.5, 3.5, 3.5])
    expect(v2.runs[0]).toMatchObject({ bonuses: 6, bonuses_counted: 5 })
    expect(v2).toMatchObject({ overall_mean: 4, overall_sd: 1, stability: 'medium', cross_doc_gap: 1, category_rates: { main: 1, adjacent: 0.125, subtle: 0.875 } })
  })
  it('finds the adjacent regression, adjusts 1.5 → 0.9375, and keeps the current best', () => {
    expect(report.comparisons).toEqual([expect.objectContaining({ variant: 'v2', raw_mean_diff: 1.5, adjusted_diff: 0.9375, decision: 'current_best', regressions: [{ category: 'adjacent', best_rate: 0.5, variant_rate: 0.125, drop: 0.375 }] })])
    expect(report.recommendation).toMatchObject({ adopt: 'v1', changes_best: false })
    expect(report.convergence).toEqual({ state: 'may_have_converged', improvements: [0.3, 0.2, 0] })
    expect(report.round).toBe(3)
    expect(report.notes[0]).toContain('sample standard deviation (n − 1)')
  })
})
