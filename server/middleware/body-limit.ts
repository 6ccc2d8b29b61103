import type { IncomingMessage } from 'node:http'
import { JudgeflowError } from '~~/engine/errors'
import { isOtlpPath, isPublicPath } from '~~/server/utils/access'
import { judgeflowConfig } from '~~/server/utils/config'
import { armBodyDeadline, PUBLIC_BODY_BYTES, readBodyWithin } from '~~/server/utils/request-body'

/** How long a connection whose body was refused stays open after the 413, for the client to read it. */
const LINGER_MS = 2_000
/** Where h3's readRawBody looks for a body that was already read. */
const RAW_BODY = Symbol.for('h3RawBody')

/**
 * The body is read here, counting bytes as they arrive, so a body without a Content-Length (a
 * chunked upload) is cut off at the limit instead of being buffered whole first; the routes then
 * read the buffered copy. The limit is JUDGEFLOW_MAX_BODY_BYTES (JUDGEFLOW_OTLP_MAX_BODY_BYTES on
 * OTLP's /v1/traces, whose batches are larger), and PUBLIC_BODY_BYTES on the
 * routes served without signing in, refused from the Content-Length before anything is read. A
 * body still arriving JUDGEFLOW_BODY_TIMEOUT_MS after the headers is answered 408 and its
 * connection closed, so that stalled uploads hold neither memory nor connections.
 */
export default defineEventHandler(async (event) => {
  if (!['POST', 'PUT', 'PATCH'].includes(event.method)) return
  const { server: { maxBodyBytes, bodyTimeoutMs }, otlp } = judgeflowConfig()
  const open = isPublicPath(event)
  const traces = isOtlpPath(event)
  const limit = open ? Math.min(PUBLIC_BODY_BYTES, maxBodyBytes) : traces ? otlp.maxBodyBytes : maxBodyBytes
  const tooLarge = () => {
    // The rest of the body is not kept: Node discards what still arrives, and the connection is
    // closed a little after the answer — not at once, which would reset it before a client still
    // sending has read the 413 (a lingering close, as web servers do).
    event.node.res.once('finish', () => setTimeout(() => event.node.req.destroy(), LINGER_MS).unref())
    const which = open && limit < maxBodyBytes ? 'the most a route served without signing in takes' : traces ? 'JUDGEFLOW_OTLP_MAX_BODY_BYTES' : 'JUDGEFLOW_MAX_BODY_BYTES'
    return new JudgeflowError('BODY_TOO_LARGE', `The request body is larger than ${limit} bytes (${which}).`)
  }
  if (Number(getRequestHeader(event, 'content-length')) > limit) throw tooLarge()
  const read = await readBodyWithin(event.node.req, limit, armBodyDeadline(event, bodyTimeoutMs))
  if ('body' in read) {
    (event.node.req as IncomingMessage & { [RAW_BODY]?: Promise<Buffer> })[RAW_BODY] = Promise.resolve(read.body)
    return
  }
  if (read.cut === 'too large') throw tooLarge()
  setResponseHeader(event, 'connection', 'close')
  if (read.cut === 'closed') throw new JudgeflowError('INVALID_BODY', 'The connection closed before the request body was complete.')
  throw new JudgeflowError('BODY_TIMEOUT', `The request body did not arrive within ${bodyTimeoutMs / 1000} s of its headers (JUDGEFLOW_BODY_TIMEOUT_MS): send it whole, at once.`)
})
