import type { DatasetCase } from './schema'

/**
 * The prompts × providers grid of an imported promptfoo suite, as promptfoo's cases × prompts
 * table shows it: a row per test, a column per cell (prompt · provider, in promptfoo's order),
 * each holding the case that ran that test in that cell. The cases of such a suite carry the tag
 * `test:<test>` and their cell's number (`input.cell`, from 1); a dataset whose cases do not all
 * have both has no grid.
 */
export interface ReportGrid {
  /** Each cell's name: the prompt's label · the provider's. */
  columns: string[]
  /** Each test with its case id per column (null where the test did not run in that cell). */
  rows: Array<{ test: string, case_ids: Array<string | null> }>
}

const TEST_TAG = 'test:'

/** The promptfoo test a case ran (its tag `test:<test>`), or undefined for a case of no test. */
export function testOf(c: Pick<DatasetCase, 'tags'>): string | undefined {
  return c.tags?.find(tag => tag.startsWith(TEST_TAG))?.slice(TEST_TAG.length)
}

export function gridOf(cases: readonly DatasetCase[]): ReportGrid | undefined {
  if (cases.length < 2) return undefined
  const columns: string[] = []
  const rows = new Map<string, Array<string | null>>()
  for (const c of cases) {
    const cell = c.input.cell
    const test = testOf(c)
    if (typeof cell !== 'number' || !Number.isInteger(cell) || cell < 1 || cell > 1000 || test === undefined) return undefined
    const prefix = `${test} · `
    columns[cell - 1] ??= c.id.startsWith(prefix) ? c.id.slice(prefix.length) : `cell ${cell}`
    const row = rows.get(test) ?? []
    row[cell - 1] = c.id
    rows.set(test, row)
  }
  const width = columns.length
  if (width < 2) return undefined
  return {
    columns: Array.from({ length: width }, (_, i) => columns[i] ?? `cell ${i + 1}`),
    rows: [...rows].map(([test, ids]) => ({ test, case_ids: Array.from({ length: width }, (_, i) => ids[i] ?? null) })),
  }
}
