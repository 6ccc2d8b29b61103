/**
 * The CLI runs from source through tsx (bin/judgeflow.mjs): its evaluation workers start the
 * TypeScript entry the same way, as the unit tests do; the server starts the bundled one.
 */
export const SOURCE_EVALUATION_WORKER = new URL('../engine/evaluator/worker/entry.ts', import.meta.url)
