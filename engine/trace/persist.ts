import { randomBytes } from 'node:crypto'
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { JudgeflowError } from '../errors'
import { DEFAULT_MAX_JSON_DEPTH, parseJsonChecked } from '../text/safe-json'
import type { VectorCache } from './vector-cache'

type Snapshot = ReturnType<VectorCache['snapshot']>

const named = (file: string) => `The trace cache file "${file}" (JUDGEFLOW_TRACE_CACHE_FILE)`

function isSnapshot(value: unknown): value is Snapshot {
  const snapshot = value as Partial<Snapshot> | null
  return typeof snapshot === 'object' && snapshot !== null && typeof snapshot.dimensions === 'number' && Array.isArray(snapshot.entries)
    && snapshot.entries.every(e => typeof e?.added_at === 'number' && Array.isArray(e.vector) && e.vector.length === snapshot.dimensions)
}

/**
 * The novelty cache can outlive the process: JUDGEFLOW_TRACE_CACHE_FILE names a JSON file loaded
 * when the server or a command starts and written when it ends (`saveTraceCache`). A file that is
 * not a saved cache is refused, naming it, rather than started over.
 */
export function loadTraceCache(cache: VectorCache, file: string): number {
  if (!existsSync(file)) return 0
  const snapshot = parseJsonChecked(readFileSync(file, 'utf8'), { maxDepth: DEFAULT_MAX_JSON_DEPTH, where: named(file) })
  if (!isSnapshot(snapshot)) throw new JudgeflowError('INVALID_INPUT', `${named(file)} is not a saved trace cache ({ dimensions, entries: [{ added_at, vector }] }): delete it or name another file.`)
  cache.restore(snapshot)
  return cache.size
}

/**
 * Written atomically: the snapshot goes to a temporary file of this save's own in the file's
 * folder (so two processes saving at once never write into one), flushed to disk, then renamed
 * over the file. A crash or a failure mid-write leaves the previous file whole; a failed save
 * removes its temporary file and names the file.
 */
export function saveTraceCache(cache: VectorCache, file: string): void {
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)
  try {
    const fd = openSync(temporary, 'wx')
    try {
      writeFileSync(fd, JSON.stringify(cache.snapshot()))
      fsyncSync(fd)
    }
    finally {
      closeSync(fd)
    }
    renameSync(temporary, file)
  }
  catch (error) {
    rmSync(temporary, { force: true })
    throw new JudgeflowError('INVALID_INPUT', `${named(file)} could not be written: ${(error as Error).message}. The novelty cache of this run is not kept; name a file in a folder that exists and can be written.`, { cause: error })
  }
}
