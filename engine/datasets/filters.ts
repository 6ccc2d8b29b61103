import { JudgeflowError } from '../errors'
import { compilePattern } from '../text/safe-regex'
import { testOf } from './grid'
import { summarizeCases, type CaseRun } from './outcomes'
import type { DatasetCase } from './schema'
import { mulberry32 } from './stats'

/**
 * Which cases of a dataset a run takes, as promptfoo's --filter-* flags choose tests: the ones that
 * failed or errored in an earlier report, then those whose name matches a pattern, then the first
 * N, then N drawn at random. The unit chosen is a case, or, for an imported promptfoo suite, a test
 * (the cases tagged `test:<name>`): every cell of a chosen test runs, so comparisons across its
 * cells see them all.
 */
export interface CaseFilters {
  /** RE2 syntax, matched against a case's id, or a test's name. */
  pattern?: string
  firstN?: number
  sample?: number
  /** Makes `sample` repeatable. */
  seed?: number
  /** The results of an earlier report: the units with a case that failed or errored there. */
  failing?: readonly CaseRun[]
}

interface Unit { name: string, cases: DatasetCase[] }

export function filterCases(cases: readonly DatasetCase[], filters: CaseFilters): DatasetCase[] {
  const units = new Map<string, Unit>()
  for (const c of cases) {
    const test = testOf(c)
    const key = test === undefined ? `case:${c.id}` : `test:${test}`
    const unit = units.get(key) ?? { name: test ?? c.id, cases: [] }
    unit.cases.push(c)
    units.set(key, unit)
  }
  let chosen = [...units.values()]
  if (filters.failing) {
    const bad = new Set([...summarizeCases(filters.failing)].filter(([, s]) => s.outcome !== 'passed').map(([id]) => id))
    chosen = chosen.filter(unit => unit.cases.some(c => bad.has(c.id)))
  }
  if (filters.pattern !== undefined) {
    const pattern = compilePattern(filters.pattern, { field: '--filter-pattern' })
    chosen = chosen.filter(unit => pattern.test(unit.name))
  }
  if (filters.firstN !== undefined) chosen = chosen.slice(0, filters.firstN)
  if (filters.sample !== undefined && filters.sample < chosen.length) {
    const picked = sampleIndexes(chosen.length, filters.sample, mulberry32(filters.seed ?? 0))
    chosen = chosen.filter((_, i) => picked.has(i))
  }
  if (!chosen.length) throw new JudgeflowError('INVALID_INPUT', 'No case is left once the --filter-* flags are applied: loosen them to run at least one case.')
  return chosen.flatMap(unit => unit.cases)
}

/** `count` distinct indexes below `size` (a partial Fisher–Yates shuffle); the chosen keep the dataset's order. */
function sampleIndexes(size: number, count: number, random: () => number): Set<number> {
  const indexes = Array.from({ length: size }, (_, i) => i)
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(random() * (size - i))
    ;[indexes[i], indexes[j]] = [indexes[j]!, indexes[i]!]
  }
  return new Set(indexes.slice(0, count))
}
