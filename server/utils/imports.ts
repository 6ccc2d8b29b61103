import { bundledFile } from './bundled-file'
import type { ImportJob, ImportResults } from '../../engine/datasets/import-worker/protocol'
import { readImport } from '../../engine/datasets/import-worker/read'
import { ImportReader } from '../../engine/datasets/import-worker/reader'

/** Bundled by the build (nuxt.config.ts) beside the server entry, `.output/server/`. */
export const IMPORT_WORKER_FILE = 'import-worker.mjs'

let reader: ImportReader | null | undefined

/**
 * Reads an import (a dataset file's text, cases given as values, a promptfoo config) on the import
 * worker thread, so that the server answers other requests meanwhile; on this thread only when
 * the worker's bundle is missing (a development server).
 */
export function readImportAside<K extends ImportJob['kind']>(job: Extract<ImportJob, { kind: K }>): Promise<ImportResults[K]> {
  if (reader === undefined) {
    const entry = bundledFile(IMPORT_WORKER_FILE)
    if (!entry) console.warn(`judgeflow: no ${IMPORT_WORKER_FILE} beside the server (run \`npx nuxt build\`): imports are read on the main thread`)
    reader = entry ? new ImportReader({ entry }) : null
  }
  return reader ? reader.read(job) : Promise.resolve().then(() => readImport(job))
}
