import { ownSuiteConfig, type Judgeflow, type JudgeflowConfig } from '../core'
import { holdsCode } from '../engine/assertions/registry'
import { javascriptIsolation } from '../engine/sandbox'
import { loadTraceCache, saveTraceCache } from '../engine/trace/persist'
import { openJudgeflow } from '../main'
import type { Io } from './io'

/**
 * The app a command works with: its runs kept in the database at `dbPath`, or in memory for the
 * command's life. The custom metrics and scorers folders are loaded, as the server loads them.
 */
export async function openApp(config: JudgeflowConfig, dbPath?: string): Promise<Judgeflow> {
  // The CLI's commands keep to SQLite (in memory unless --db or JUDGEFLOW_DB), whatever JUDGEFLOW_DATABASE_URL says.
  // The person's own suite runs their own code, as promptfoo runs it, in a sandbox where one is
  // available (noteUnisolatedCode says when not); the server needs JUDGEFLOW_ALLOW_CODE and a sandbox.
  const own = ownSuiteConfig(config)
  const app = openJudgeflow({ ...own, db: { ...own.db, url: undefined, path: dbPath ?? ':memory:' } })
  try {
    await app.loadCustomModules()
  }
  catch (error) {
    await app.close(0)
    throw error
  }
  return app
}

/**
 * Runs `work` with an app, closing it after. With JUDGEFLOW_TRACE_CACHE_FILE, the trace novelty
 * cache is loaded from the file before and written back after, as the server does at start and
 * shutdown, so one command's traces lower the next one's novelty. It is written also when `work`
 * fails (what was scored was seen) unless the cache is empty (a file refused at the start stays
 * as it was), and a failed write then does not hide `work`'s error.
 */
export async function withApp<T>(config: JudgeflowConfig, dbPath: string | undefined, work: (app: Judgeflow) => Promise<T>): Promise<T> {
  const app = await openApp(config, dbPath)
  const cacheFile = config.trace.cacheFile
  let done = false
  try {
    if (cacheFile) loadTraceCache(app.traceCache, cacheFile)
    const result = await work(app)
    done = true
    return result
  }
  finally {
    await app.close(0)
    if (cacheFile && (done || app.traceCache.size)) keepTraceCache(app, cacheFile, done)
  }
}

function keepTraceCache(app: Judgeflow, file: string, mustSucceed: boolean): void {
  try {
    saveTraceCache(app.traceCache, file)
  }
  catch (error) {
    if (mustSucceed) throw error
  }
}

/**
 * Before anything runs: when what the command will run holds code (a javascript or python
 * assertion, a transform) and no sandbox is available here, says so on stderr — the code will run
 * as a plain child process, as promptfoo runs it, able to read the person's files and reach the network.
 */
export async function noteUnisolatedCode(value: unknown, config: JudgeflowConfig, io: Io): Promise<void> {
  if (!holdsCode(value)) return
  const probe = await javascriptIsolation(config.code.searchPath)
  if (!probe.ok) io.err(`Note: the javascript and python assertions, transforms and code steps here run without a sandbox — with an empty environment and their time and memory limits, but able to read your files and reach the network — because ${probe.reason}.`)
}
