import { and, desc, eq, getTableColumns, inArray, lt } from 'drizzle-orm'
import type { RunRepository } from '../core/store'
import type { RunSummaryRow } from '../core/rows'
import { UNFINISHED_STATUSES } from './repositories/run-leases'
import { allRows, type Perform } from './statement-program'

/**
 * The lists of runs, one implementation over both dialects (see statement-program.ts): a
 * workflow's runs as summaries, newest first, and its unfinished runs' ids.
 */
export function runLists(t: { runs: any }, perform: Perform): Pick<RunRepository, 'list' | 'unfinished'> {
  const { runs } = t
  // Without their definition, input and output: a list stays small however large runs are.
  const { definition: _definition, input: _input, output: _output, ...summary } = getTableColumns(runs)
  return {
    list: (workflowId, options = {}) => perform(db => allRows<RunSummaryRow>(db.select(summary).from(runs)
      .where(options.before ? and(eq(runs.workflowId, workflowId), lt(runs.createdAt, options.before)) : eq(runs.workflowId, workflowId))
      .orderBy(desc(runs.createdAt)).limit(options.limit ?? 50))),
    unfinished: workflowId => perform(function* (db) {
      const rows: Array<{ id: string }> = yield* allRows(db.select({ id: runs.id }).from(runs)
        .where(and(eq(runs.workflowId, workflowId), inArray(runs.status, UNFINISHED_STATUSES))))
      return rows.map(row => row.id)
    }),
  }
}
