import type { Judgeflow, JudgeflowConfig } from '../core'
import { openJudgeflow } from '../main'

/**
 * The app a command works with: its runs kept in the database at `dbPath`, or in memory for the
 * command's life. The custom metrics and scorers folders are loaded, as the server loads them.
 */
export async function openApp(config: JudgeflowConfig, dbPath?: string): Promise<Judgeflow> {
  // The CLI's commands keep to SQLite (in memory unless --db or JUDGEFLOW_DB), whatever JUDGEFLOW_DATABASE_URL says.
  // The person's own suite runs their own code, as promptfoo runs it; the server needs JUDGEFLOW_ALLOW_CODE.
  const app = openJudgeflow({ ...config, db: { ...config.db, url: undefined, path: dbPath ?? ':memory:' }, code: { ...config.code, allow: true } })
  try {
    await app.loadCustomModules()
  }
  catch (error) {
    await app.close(0)
    throw error
  }
  return app
}

/** Runs `work` with an app, closing it after. */
export async function withApp<T>(config: JudgeflowConfig, dbPath: string | undefined, work: (app: Judgeflow) => Promise<T>): Promise<T> {
  const app = await openApp(config, dbPath)
  try {
    return await work(app)
  }
  finally {
    await app.close(0)
  }
}
