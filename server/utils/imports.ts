import type { H3Event } from 'h3'
import { bundledFile } from './bundled-file'
import { clientAddress } from './clients'
import { judgeflowConfig } from './config'
import type { ImportJob, ImportResults } from '~~/engine/datasets/import-worker/protocol'
import { readImport } from '~~/engine/datasets/import-worker/read'
import { ImportReader } from '~~/engine/datasets/import-worker/reader'

/** Bundled by the build (nuxt.config.ts) beside the server entry, `.output/server/`. */
export const IMPORT_WORKER_FILE = 'import-worker.mjs'

let reader: ImportReader | null | undefined

/**
 * Reads an import (a dataset file's text, cases given as values, a promptfoo config) on the import
 * worker thread, so that the server answers other requests meanwhile; on this thread only when
 * the worker's bundle is missing (a development server). An import that would wait behind
 * JUDGEFLOW_MAX_QUEUED_IMPORTS others, or give the request's client more than
 * JUDGEFLOW_MAX_IMPORTS_PER_CLIENT imports under way, is refused (429 with Retry-After).
 */
export function readImportAside<K extends ImportJob['kind']>(event: H3Event, job: Extract<ImportJob, { kind: K }>): Promise<ImportResults[K]> {
  if (reader === undefined) {
    const entry = bundledFile(IMPORT_WORKER_FILE)
    if (!entry) console.warn(`judgeflow: no ${IMPORT_WORKER_FILE} beside the server (run \`npx nuxt build\`): imports are read on the main thread`)
    const { maxQueuedImports, maxImportsPerClient } = judgeflowConfig().server
    reader = entry ? new ImportReader({ entry, maxQueued: maxQueuedImports, maxPerClient: maxImportsPerClient }) : null
  }
  return reader ? reader.read(job, clientAddress(event)) : Promise.resolve().then(() => readImport(job))
}
