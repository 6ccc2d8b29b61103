/**
 * The import worker thread: reads dataset files, case lists and promptfoo configs with the same
 * functions as the command line, one at a time, so that the server's thread stays free meanwhile.
 */
import { parentPort } from 'node:worker_threads'
import { serializeError } from '../../errors'
import { readImport } from './read'
import type { FromWorker, ToWorker } from './protocol'

const port = parentPort!
port.on('message', ({ id, job }: ToWorker) => {
  let message: FromWorker
  try {
    message = { id, ok: true, json: JSON.stringify(readImport(job)) }
  }
  catch (error) {
    message = { id, ok: false, error: serializeError(error) }
  }
  port.postMessage(message)
})
