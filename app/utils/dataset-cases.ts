/**
 * A dataset version's cases read page by page: `GET /api/datasets/:id` answers one page (its
 * `page.total` says how many there are), so a view that needs more reads on, the largest pages the
 * API gives, up to a number of cases it can use.
 */
import type { DatasetCase } from './datasets'
import type { DatasetDetail } from './dataset-api'

/** The most cases the case table edits in the browser; a larger version is edited as a file (export, edit, import). */
export const EDITABLE_CASES = 5_000
/** The most cases the report page reads for its case table's inputs and labels; rows past them show their results alone. */
export const REPORT_CASES = 10_000

export const casesUrl = (datasetId: string, version: number, offset: number, limit: number) =>
  `/api/datasets/${encodeURIComponent(datasetId)}?version=${version}&offset=${offset}&limit=${limit}`

/** The version's cases from the first, at most `upTo`: those `first` holds (a page already read), then the pages after it. */
export async function readCases(datasetId: string, version: number, upTo: number, first?: DatasetDetail): Promise<DatasetCase[]> {
  const cases = first ? first.cases.slice(0, upTo) : []
  let total = first ? first.page.total : Number.POSITIVE_INFINITY
  while (cases.length < Math.min(total, upTo)) {
    const pageSize = first?.page.max_limit ?? 1_000
    const page = await $fetch<DatasetDetail>(casesUrl(datasetId, version, cases.length, Math.min(pageSize, upTo - cases.length)))
    total = page.page.total
    if (!page.cases.length) break
    cases.push(...page.cases)
  }
  return cases
}
