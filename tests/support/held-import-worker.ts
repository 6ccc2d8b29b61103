/**
 * An import worker for tests of the import queue (`heldImports()` in held-imports.ts is the test's
 * side): it reads as the real one (entry.ts) does, except that a promptfoo config with a line
 * `# hold: <key>` is held until the test releases that key, so a test chooses how long an import
 * holds the worker instead of finding an input that slow. It says on the same channel which import
 * it starts reading (the dataset's `name`, or the job's kind).
 */
import { BroadcastChannel, parentPort } from 'node:worker_threads'
import { serializeError } from '../../engine/errors'
import { readImport } from '../../engine/datasets/import-worker/read'
import type { FromWorker, ImportJob, ToWorker } from '../../engine/datasets/import-worker/protocol'
import { HELD_IMPORTS_CHANNEL, type HeldImportMessage } from './held-imports'

const port = parentPort!
const channel = new BroadcastChannel(HELD_IMPORTS_CHANNEL)
const released = new Set<string>()
const waiting = new Map<string, () => void>()
channel.onmessage = (message) => {
  const said = (message as { data: HeldImportMessage }).data
  if (!('release' in said)) return
  released.add(said.release)
  waiting.get(said.release)?.()
}
const heldKey = (job: ImportJob) => (job.kind === 'promptfoo' ? /^# hold: (\S+)$/m.exec(job.text)?.[1] : undefined)

port.on('message', async ({ id, job }: ToWorker) => {
  channel.postMessage({ started: job.kind === 'promptfoo' ? job.options.name ?? 'promptfoo' : job.kind } satisfies HeldImportMessage)
  const key = heldKey(job)
  if (key && !released.has(key)) await new Promise<void>(resolve => waiting.set(key, resolve))
  let message: FromWorker
  try {
    message = { id, ok: true, json: JSON.stringify(readImport(job)) }
  }
  catch (error) {
    message = { id, ok: false, error: serializeError(error) }
  }
  port.postMessage(message)
})
