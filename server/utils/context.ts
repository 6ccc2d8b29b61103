import { createProviders, defaultRegistry, type Providers, type StepRegistry } from '../../engine'
import { createSqliteResponseCache, openDatabase, RunService, type DbHandle } from '../../db'
import { serverLimits } from './config'

export interface JudgeflowContext {
  handle: DbHandle
  registry: StepRegistry
  providers: Providers
  runs: RunService
}

let context: JudgeflowContext | undefined

/** The process-wide database, providers and run service, opened on first use. */
export function useJudgeflow(): JudgeflowContext {
  if (context) return context
  const handle = openDatabase()
  const registry = defaultRegistry
  const providers = createProviders({ cache: createSqliteResponseCache(handle.db) })
  const maxConcurrentRuns = Number(process.env.JUDGEFLOW_MAX_CONCURRENT_RUNS) || 16
  const { runLeaseMs, maxResumes } = serverLimits()
  const runs = new RunService({ db: handle.db, registry, providers, maxConcurrentRuns, leaseMs: runLeaseMs, maxResumes })
  context = { handle, registry, providers, runs }
  return context
}
