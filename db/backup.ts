import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import Database from 'better-sqlite3'
import { JudgeflowError } from '../engine/errors'

export interface BackupResult {
  source: string
  destination: string
  pages: number
  integrity: string
  counts: Record<string, number>
}

/**
 * A consistent copy of a live database with SQLite's online backup API: it copies page by page
 * while other connections (a running server) keep reading and writing, and restarts on its own
 * when the source changes under it. The copy is written next to the destination and renamed into
 * place once it is complete and passes `PRAGMA integrity_check`, so a half-written backup never
 * looks like a good one.
 */
export async function backupDatabase(source: string, destination: string): Promise<BackupResult> {
  if (!existsSync(source)) throw new JudgeflowError('INVALID_INPUT', `the database "${source}" does not exist`)
  const target = resolve(destination)
  if (target === resolve(source)) throw new JudgeflowError('INVALID_INPUT', 'the backup must go to another file than the database itself')
  mkdirSync(dirname(target), { recursive: true })
  const partial = `${target}.partial`
  rmSync(partial, { force: true })
  const db = new Database(source, { readonly: true, fileMustExist: true })
  db.pragma('busy_timeout = 5000')
  let pages = 0
  try {
    await db.backup(partial, { progress: ({ totalPages }) => { pages = totalPages; return 256 } })
  }
  finally {
    db.close()
  }
  const copy = new Database(partial, { readonly: true })
  let integrity: string
  const counts: Record<string, number> = {}
  try {
    integrity = String(copy.pragma('integrity_check', { simple: true }))
    for (const table of ['workflows', 'runs', 'step_runs', 'run_events', 'experiments', 'experiment_rounds']) {
      const exists = copy.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table)
      if (exists) counts[table] = (copy.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
    }
  }
  finally {
    copy.close()
  }
  if (integrity !== 'ok') {
    rmSync(partial, { force: true })
    throw new JudgeflowError('INTERNAL', `the backup failed its integrity check (${integrity}); nothing was written to "${destination}"`, { category: 'system' })
  }
  renameSync(partial, target)
  return { source, destination: target, pages, integrity, counts }
}
