import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import type { VectorCache } from './vector-cache'

/**
 * The novelty cache can outlive the process: JUDGEFLOW_TRACE_CACHE_FILE names a JSON file loaded
 * at start and written at shutdown (atomically, through a temporary file).
 */
export function loadTraceCache(cache: VectorCache, file: string): number {
  if (!existsSync(file)) return 0
  const snapshot = JSON.parse(readFileSync(file, 'utf8'))
  cache.restore(snapshot)
  return cache.size
}

export function saveTraceCache(cache: VectorCache, file: string): void {
  writeFileSync(`${file}.tmp`, JSON.stringify(cache.snapshot()))
  renameSync(`${file}.tmp`, file)
}
