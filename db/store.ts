import type { Store } from '../core/store'
import type { DbHandle } from './client'
import { GroupCommit } from './group-commit'
import { journalFor, storeEvent } from './run-recorder'
import { claimOrphanedRuns, claimQueuedRun, claimOrphanToInterrupt } from './run-takeover'
import { createSqliteResponseCache } from './repositories/cache'
import { oneAtATime, pruneStore } from './retention'
import {
  createDataset, createDatasetRun, deleteDataset, findDatasetByName, getDataset, getDatasetRun, listDatasetRunCases, listDatasetRuns, listDatasets,
  listDatasetVersions, listOpenDatasetRuns, saveDatasetRunCase, updateDataset, updateDatasetRun,
} from './repositories/datasets'
import {
  createExperiment, createRound, deleteExperiment, getExperiment, getRound, listExperiments, listOpenRounds, listRounds, roundExists,
  updateExperiment, updateRound,
} from './repositories/experiments'
import { getRunLease, releaseLeases, renewLease } from './repositories/run-leases'
import { createRun, finishRun, getRun, listEventsAfter, listRuns, listStepRuns, listUnfinishedRuns, markRunStarted, runStatuses } from './repositories/runs'
import { getSetting, setSetting } from './repositories/settings'
import { createWorkflow, deleteWorkflow, getWorkflow, listWorkflows, seedWorkflows, updateWorkflow } from './repositories/workflows'

/**
 * The application's store in one SQLite database. Run writes go through a group commit: the
 * writes of one turn of the event loop share a transaction, and each promise settles once it
 * has committed, so concurrent runs stop paying one commit per event.
 */
export function createSqliteStore(handle: DbHandle): Store & { handle: DbHandle } {
  const { db } = handle
  const writes = new GroupCommit(db)
  return {
    handle,
    workflows: {
      list: () => listWorkflows(db),
      get: (id, version) => getWorkflow(db, id, version),
      create: definition => createWorkflow(db, definition),
      update: (id, definition, options) => updateWorkflow(db, id, definition, options),
      delete: id => deleteWorkflow(db, id),
      seed: (marker, definitions) => seedWorkflows(db, marker, definitions),
    },
    runs: {
      create: run => writes.write(() => createRun(db, run)),
      get: id => getRun(db, id),
      list: (workflowId, options) => listRuns(db, workflowId, options),
      steps: runId => listStepRuns(db, runId),
      eventsAfter: (runId, afterId, limit) => listEventsAfter(db, runId, afterId, limit),
      statuses: ids => runStatuses(db, ids),
      unfinished: workflowId => listUnfinishedRuns(db, workflowId),
      markStarted: (id, owner) => writes.write(() => markRunStarted(db, id, owner)),
      record: (runId, event) => writes.write(() => storeEvent(db, runId, event)),
      finish: (runId, event) => writes.write(() => {
        const { result } = event
        finishRun(db, runId, { status: result.status, verdict: result.verdict, output: result.output, error: result.error, durationMs: result.duration_ms })
        return storeEvent(db, runId, event)
      }),
      journal: runId => journalFor(db, runId),
    },
    leases: {
      renew: lease => renewLease(db, lease),
      release: (owner, now) => releaseLeases(db, owner, now),
      get: runId => getRunLease(db, runId),
      claimOrphans: options => claimOrphanedRuns(db, options),
      claimQueued: (runId, options) => claimQueuedRun(db, runId, options),
      claimToInterrupt: (runId, options) => claimOrphanToInterrupt(db, runId, options),
    },
    experiments: {
      list: () => listExperiments(db),
      get: id => getExperiment(db, id),
      create: definition => createExperiment(db, definition),
      update: (id, definition) => updateExperiment(db, id, definition),
      delete: id => deleteExperiment(db, id),
      rounds: experimentId => listRounds(db, experimentId),
      round: (experimentId, number) => getRound(db, experimentId, number),
      roundExists: (experimentId, number) => roundExists(db, experimentId, number),
      createRound: (experimentId, currentBest) => createRound(db, experimentId, currentBest),
      updateRound: (id, patch) => updateRound(db, id, patch),
      openRounds: () => listOpenRounds(db),
    },
    datasets: {
      list: () => listDatasets(db),
      get: (id, version) => getDataset(db, id, version),
      findByName: name => findDatasetByName(db, name),
      versions: id => listDatasetVersions(db, id),
      create: (name, cases) => createDataset(db, name, cases),
      update: (id, fields) => updateDataset(db, id, fields),
      delete: id => deleteDataset(db, id),
      createRun: run => createDatasetRun(db, run),
      getRun: id => getDatasetRun(db, id),
      runs: datasetId => listDatasetRuns(db, datasetId),
      openRuns: () => listOpenDatasetRuns(db),
      updateRun: (id, patch) => updateDatasetRun(db, id, patch),
      runCases: datasetRunId => listDatasetRunCases(db, datasetRunId),
      saveRunCase: row => saveDatasetRunCase(db, row),
    },
    settings: {
      get: key => getSetting(db, key),
      set: (key, value) => setSetting(db, key, value),
    },
    cache: createSqliteResponseCache(db),
    retention: {
      prune: oneAtATime(policy => pruneStore({
        rows: async query => db.all(query),
        transaction: async statements => db.transaction(tx => statements.map(statement => tx.run(statement).changes)),
      }, policy)),
    },
    close: () => handle.close(),
  }
}
