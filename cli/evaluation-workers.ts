import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * The entry of the CLI's evaluation worker threads: the compiled package ships it beside its
 * chunks (`dist/evaluation-worker.js`); from source the TypeScript entry runs through tsx, as the
 * unit tests run it. The server starts its own bundled one.
 */
export function evaluationWorkerEntry(): URL {
  const compiled = new URL('./evaluation-worker.js', import.meta.url)
  return existsSync(fileURLToPath(compiled)) ? compiled : new URL('../engine/evaluator/worker/entry.ts', import.meta.url)
}
