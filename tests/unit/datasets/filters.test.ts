import { describe, expect, it } from 'vitest'
import { filterCases, type DatasetCase } from '../../../engine/datasets'

const plain: DatasetCase[] = ['login-1', 'login-2', 'billing-1', 'billing-2', 'refund-1'].map(id => ({ id, input: { q: id } }))
/** An imported promptfoo grid: two cells per test. */
const grid: DatasetCase[] = ['greeting', 'json', 'too long'].flatMap(test => [1, 2].map(cell => ({
  id: `${test} · prompt 1 · provider ${cell}`, input: { cell }, tags: [`test:${test}`],
})))
const ids = (cases: DatasetCase[]) => cases.map(c => c.id)

describe('filterCases', () => {
  it('keeps the cases whose id matches an RE2 pattern, in the dataset\'s order, and refuses an invalid one', () => {
    expect(ids(filterCases(plain, { pattern: '^billing' }))).toEqual(['billing-1', 'billing-2'])
    expect(ids(filterCases(plain, { pattern: '-1$' }))).toEqual(['login-1', 'billing-1', 'refund-1'])
    expect(() => filterCases(plain, { pattern: '(?=x)' })).toThrow(/--filter-pattern: the pattern \/\(\?=x\)\/ is not a valid regular expression/)
    expect(() => filterCases(plain, { pattern: 'nothing' })).toThrow('No case is left once the --filter-* flags are applied')
  })

  it('takes the first N, and N at random: the same N for the same seed', () => {
    expect(ids(filterCases(plain, { firstN: 2 }))).toEqual(['login-1', 'login-2'])
    expect(filterCases(plain, { firstN: 9 })).toHaveLength(5)
    const a = ids(filterCases(plain, { sample: 3, seed: 7 }))
    expect(a).toHaveLength(3)
    expect(new Set(a).size).toBe(3)
    expect(ids(filterCases(plain, { sample: 3, seed: 7 }))).toEqual(a)
    const seen = new Set(Array.from({ length: 20 }, (_, seed) => ids(filterCases(plain, { sample: 3, seed })).join()))
    expect(seen.size).toBeGreaterThan(1)
    // Drawn cases keep the dataset's order.
    expect(a).toEqual(ids(plain).filter(id => a.includes(id)))
  })

  it('keeps the cases that failed or errored in an earlier report\'s results, a case of several runs by its outcome', () => {
    const failing = [
      { case_id: 'login-1', repeat: 1, status: 'succeeded' as const, verdict: 'pass' as const },
      { case_id: 'login-2', repeat: 1, status: 'succeeded' as const, verdict: 'pass' as const },
      { case_id: 'login-2', repeat: 2, status: 'succeeded' as const, verdict: 'fail' as const },
      { case_id: 'billing-1', repeat: 1, status: 'errored' as const, error: 'boom' },
      { case_id: 'refund-1', repeat: 1, status: 'succeeded' as const, verdict: 'fail' as const },
    ]
    expect(ids(filterCases(plain, { failing }))).toEqual(['login-2', 'billing-1', 'refund-1'])
    // Then the pattern, then the first N.
    expect(ids(filterCases(plain, { failing, pattern: 'i', firstN: 1 }))).toEqual(['login-2'])
  })

  it('chooses whole tests of a promptfoo grid: the pattern matches the test\'s name, N counts tests', () => {
    expect(ids(filterCases(grid, { pattern: '^g' }))).toEqual(['greeting · prompt 1 · provider 1', 'greeting · prompt 1 · provider 2'])
    // "provider 2" is in every case id, but not in any test's name.
    expect(() => filterCases(grid, { pattern: 'provider 2' })).toThrow('No case is left')
    expect(filterCases(grid, { firstN: 2 })).toHaveLength(4)
    expect(filterCases(grid, { sample: 1, seed: 3 })).toHaveLength(2)
    const failing = [{ case_id: 'json · prompt 1 · provider 2', repeat: 1, status: 'succeeded' as const, verdict: 'fail' as const }]
    expect(ids(filterCases(grid, { failing }))).toEqual(['json · prompt 1 · provider 1', 'json · prompt 1 · provider 2'])
  })
})
