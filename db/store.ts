import type { RunFinished, Store } from '../core/store'
import type { DbHandle } from './client'
import { sql } from 'drizzle-orm'
import { readStoredValue, viewRun, type ViewDialect } from './bounded-view'
import { GroupCommit } from './group-commit'
import { onlineDecisions, onlineRules, onlineSpans, runs, stepRuns } from './schema'
import { onlineRepository } from './online'
import { getOnlineSpan, ingestOnlineRows } from './repositories/online-ingest'
import { journalFor, storeEvent } from './run-recorder'
import { leaseClaims } from './run-takeover'
import { performOnSqlite } from './statement-program'
import { experimentRepository, responseCache, settingsRepository } from './catalog'
import { oneAtATime, pruneStore } from './retention'
import { getDatasetCasesPage, saveDatasetRunCase } from './repositories/datasets'
import { datasetRepository } from './datasets'
import { renewLease } from './repositories/run-leases'
import { createRun, finishRun, getRun, holdsRun, listEventsAfter, listStepRuns, markRunStarted, runStatuses } from './repositories/runs'
import { runLists } from './run-lists'
import { sqliteCatalogTables, sqliteLeaseTables, sqliteReviewTables } from './sqlite-tables'
import { reviewRepository } from './review'
import { getWorkflow } from './repositories/workflows'
import { workflowRepository } from './workflows'

/**
 * The application's store in one SQLite database. Run writes go through a group commit (see
 * GroupCommit): writes queued together share a transaction, and each promise settles once it has committed.
 */
export function createSqliteStore(handle: DbHandle): Store & { handle: DbHandle } {
  const { db } = handle
  const writes = new GroupCommit(db, handle.synchronous)
  const held = (runId: string, holder: string | undefined) => holder === undefined || holdsRun(db, runId, holder)
  const storeEnd = (runId: string, event: RunFinished) => {
    const { result } = event
    finishRun(db, runId, { status: result.status, verdict: result.verdict, output: result.output, error: result.error, durationMs: result.duration_ms })
    return storeEvent(db, runId, event)
  }
  const perform = performOnSqlite(db)
  const view: ViewDialect = { db, runs, stepRuns, text: column => sql`${column}`, rows: async query => query.all() }
  return {
    handle,
    workflows: workflowRepository(sqliteCatalogTables, perform, (id, version) => getWorkflow(db, id, version)),
    runs: {
      create: run => writes.write(() => createRun(db, run)),
      get: id => getRun(db, id),
      ...runLists({ runs }, perform),
      steps: runId => listStepRuns(db, runId),
      eventsAfter: (runId, afterId, limit) => listEventsAfter(db, runId, afterId, limit),
      view: (id, limits) => viewRun(view, id, limits),
      value: (runId, ref) => readStoredValue(view, runId, ref),
      statuses: ids => runStatuses(db, ids),
      markStarted: (id, owner) => writes.write(() => markRunStarted(db, id, owner)),
      // Fenced: the holder is checked in the transaction that writes (SQLite serialises writers, and a
      // transaction whose snapshot another process's commit made stale cannot write: it is retried).
      write: (runId, events, holder) => writes.write(() => {
        if (!held(runId, holder)) return null
        return events.map(event => (event.type === 'run.finished' ? storeEnd(runId, event as RunFinished) : storeEvent(db, runId, event)))
      }),
      journal: runId => journalFor(db, runId),
    },
    leases: {
      renew: lease => renewLease(db, lease),
      ...leaseClaims(sqliteLeaseTables, perform),
    },
    experiments: experimentRepository(sqliteCatalogTables, perform),
    datasets: {
      ...datasetRepository(sqliteCatalogTables, perform),
      casesPage: (id, page) => getDatasetCasesPage(db, id, page),
      // With the run writes: a case's row commits in the same transaction as the events of that turn.
      saveRunCase: row => writes.write(() => saveDatasetRunCase(db, row)),
    },
    settings: settingsRepository(sqliteCatalogTables, perform),
    cache: responseCache(sqliteCatalogTables, perform),
    // With the run writes: a request's spans and decisions commit together, and the promise settles once they have.
    online: {
      ...onlineRepository({
        db, tables: { onlineRules, onlineSpans, onlineDecisions }, rows: async query => query.all(),
        write: build => writes.write(() => build(db).map(statement => statement.run().changes as number)),
      }),
      ingest: (spans, decisions) => writes.write(() => ingestOnlineRows(db, spans, decisions)),
      getSpan: (traceId, spanId) => getOnlineSpan(db, traceId, spanId),
    },
    review: reviewRepository(sqliteReviewTables, perform),
    retention: {
      prune: oneAtATime(policy => pruneStore({
        rows: async query => db.all(query),
        transaction: async statements => db.transaction(tx => statements.map(statement => tx.run(statement).changes)),
      }, policy)),
    },
    close: () => handle.close(),
  }
}
