import type { DatasetCasesPage } from '~~/core'
import { presentDatasetSummary } from './datasets'

/**
 * `GET /api/datasets/:id` answers a page of a version's cases, never all of them: a version may
 * hold 100,000 cases (tens of megabytes), which one answer would build and send whole. A page holds
 * `limit` cases (DEFAULT_CASES_PAGE unless asked, at most MAX_CASES_PAGE) and stops after
 * PAGE_CHARACTERS of JSON (its first case always in); `page.next` reads on, and the export the whole.
 */
export const DEFAULT_CASES_PAGE = 100
export const MAX_CASES_PAGE = 1_000
export const PAGE_CHARACTERS = 2_000_000

export function presentDatasetPage(dataset: DatasetCasesPage, offset: number, limit: number) {
  const base = `/api/datasets/${encodeURIComponent(dataset.id)}`
  const end = offset + dataset.cases.length
  return {
    ...presentDatasetSummary(dataset),
    version: dataset.version,
    cases: dataset.cases,
    page: {
      offset,
      limit,
      max_limit: MAX_CASES_PAGE,
      /** The version's cases in all. */
      total: dataset.total,
      next: dataset.cases.length && end < dataset.total ? `${base}?version=${dataset.version}&offset=${end}&limit=${limit}` : null,
    },
    export: {
      jsonl: `${base}/export?version=${dataset.version}&format=jsonl`,
      csv: `${base}/export?version=${dataset.version}&format=csv`,
    },
  }
}
