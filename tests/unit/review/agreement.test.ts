import { describe, expect, it } from 'vitest'
import { cohenKappaOf, consensusOf, fleissKappaOf, krippendorffAlphaNominal, peopleAgreement, type ItemLabels } from '../../../engine/review/agreement'

/** Items from rows of counts per label: row [2, 0, 1] → two reviewers said "c0", one "c2". */
function fromCounts(rows: number[][]): ItemLabels[] {
  return rows.map((row) => {
    const item: Record<string, string> = {}
    let r = 0
    row.forEach((count, label) => {
      for (let k = 0; k < count; k++) item[`r${r++}`] = `c${label}`
    })
    return item
  })
}

describe('agreement between people', () => {
  it('Cohen\'s κ: 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no gives p_o 0.7, p_e 0.5, κ 0.4', () => {
    const items: ItemLabels[] = [
      ...Array.from({ length: 20 }, () => ({ ann: 'yes', bo: 'yes' })),
      ...Array.from({ length: 5 }, () => ({ ann: 'yes', bo: 'no' })),
      ...Array.from({ length: 10 }, () => ({ ann: 'no', bo: 'yes' })),
      ...Array.from({ length: 15 }, () => ({ ann: 'no', bo: 'no' })),
      // Items only one of them labelled are not compared.
      { ann: 'yes' }, { bo: 'no' },
    ]
    expect(cohenKappaOf(items, 'ann', 'bo')).toBeCloseTo(0.4, 10)
  })

  it('Fleiss\' κ on Fleiss\'s 10 subjects × 14 raters × 5 categories: P̄ 0.378, P̄e 0.213, κ 0.210', () => {
    const rows = [
      [0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
      [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7],
    ]
    expect(fleissKappaOf(fromCounts(rows))).toBeCloseTo(0.20993, 4)
  })

  it('Krippendorff\'s α (nominal) on Krippendorff\'s 4 coders × 12 units with missing values: 0.743', () => {
    const coders = {
      A: [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
      B: [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
      C: [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
      D: [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
    }
    const items: ItemLabels[] = Array.from({ length: 12 }, (_, u) => Object.fromEntries(
      Object.entries(coders).flatMap(([coder, values]) => (values[u] === null ? [] : [[coder, String(values[u])]])),
    ))
    expect(krippendorffAlphaNominal(items)).toBeCloseTo(0.743, 3)
  })

  it('Krippendorff\'s α worked by hand: units (a,a) (a,b) (b,b) (b,b) give n_a 3, n_b 5, α = 1 − 7·2/30', () => {
    const items = [{ x: 'a', y: 'a' }, { x: 'a', y: 'b' }, { x: 'b', y: 'b' }, { x: 'b', y: 'b' }]
    expect(krippendorffAlphaNominal(items)).toBeCloseTo(1 - 14 / 30, 12)
  })

  it('is not defined when every label is the same, or no item has two labels', () => {
    const same = [{ x: 'pass', y: 'pass' }, { x: 'pass', y: 'pass' }]
    expect(cohenKappaOf(same, 'x', 'y')).toBeNull()
    expect(fleissKappaOf(same)).toBeNull()
    expect(krippendorffAlphaNominal(same)).toBeNull()
    expect(krippendorffAlphaNominal([{ x: 'pass' }, { y: 'fail' }])).toBeNull()
  })

  it('takes Cohen\'s κ for two reviewers and Fleiss\'s for more, each with a seeded interval around it', () => {
    const two = Array.from({ length: 40 }, (_, i) => ({ ann: i % 3 ? 'pass' : 'fail', bo: i % 5 ? 'pass' : 'fail' }))
    const a = peopleAgreement(two)
    expect(a.reviewers).toBe(2)
    expect(a.kappa!.kind).toBe('cohen')
    expect(a.kappa!.value).toBeCloseTo(cohenKappaOf(two, 'ann', 'bo')!, 12)
    expect(a.kappa!.ci![0]).toBeLessThanOrEqual(a.kappa!.value!)
    expect(a.kappa!.ci![1]).toBeGreaterThanOrEqual(a.kappa!.value!)
    expect(peopleAgreement(two)).toEqual(a)
    const three = two.map((item, i) => ({ ...item, cy: i % 2 ? 'pass' : 'fail' }))
    const b = peopleAgreement(three)
    expect(b.kappa!.kind).toBe('fleiss')
    expect(b.kappa!.value).toBeCloseTo(fleissKappaOf(three)!, 12)
    expect(b.alpha.items).toBe(40)
  })
})

describe('the consensus label', () => {
  it('is the label most reviewers gave, with its votes', () => {
    expect(consensusOf({ a: 'pass', b: 'fail', c: 'pass' })).toEqual({ label: 'pass', votes: 2, of: 3 })
  })
  it('is none when the top labels tie or nobody labelled', () => {
    expect(consensusOf({ a: 'pass', b: 'fail' })).toEqual({ label: null, reason: 'tied', tied: ['fail', 'pass'] })
    expect(consensusOf({ a: undefined })).toEqual({ label: null, reason: 'no labels' })
  })
})
