import type { IncomingMessage } from 'node:http'
import { JudgeflowError } from '../../engine/errors'
import { judgeflowConfig } from '../utils/config'

/** How long a connection whose body was refused stays open after the 413, for the client to read it. */
const LINGER_MS = 2_000
/** Where h3's readRawBody looks for a body that was already read. */
const RAW_BODY = Symbol.for('h3RawBody')

/**
 * The body is read here, counting bytes as they arrive, so a body without a Content-Length (a
 * chunked upload) is cut off at the limit instead of being buffered whole first. The routes then
 * read the buffered copy.
 */
export default defineEventHandler(async (event) => {
  if (!['POST', 'PUT', 'PATCH'].includes(event.method)) return
  /** Refuses request bodies over the limit (JUDGEFLOW_MAX_BODY_BYTES, 1 MiB by default) with 413. */
  const limit = judgeflowConfig().server.maxBodyBytes
  const tooLarge = () => {
    // The rest of the body is not kept: Node discards what still arrives, and the connection is
    // closed a little after the answer — not at once, which would reset it before a client still
    // sending has read the 413 (a lingering close, as web servers do).
    event.node.res.once('finish', () => setTimeout(() => event.node.req.destroy(), LINGER_MS).unref())
    return new JudgeflowError('BODY_TOO_LARGE', `The request body is larger than ${limit} bytes (JUDGEFLOW_MAX_BODY_BYTES).`)
  }
  const declared = Number(getRequestHeader(event, 'content-length'))
  if (declared > limit) throw tooLarge()
  const req = event.node.req as IncomingMessage & { [RAW_BODY]?: Promise<Buffer> }
  const body = readLimited(req, limit)
  req[RAW_BODY] = body
  body.catch(() => {})
  if (!(await body.then(() => true, () => false))) throw tooLarge()
})

function readLimited(req: IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > max) {
        req.off('data', onData)
        req.pause()
        chunks.length = 0
        reject(new Error('body over the limit'))
        return
      }
      chunks.push(chunk)
    }
    req.on('data', onData)
    req.once('end', () => resolve(Buffer.concat(chunks)))
    req.once('error', reject)
  })
}
