import type { IncomingMessage } from 'node:http'
import type { H3Event } from 'h3'

/**
 * The most a route open without signing in (the access middleware's public list: /api/login,
 * /api/logout, /api/session, /api/health) takes: a token is under a hundred bytes, and a
 * stranger's bodies are what an attacker sends by the thousand.
 */
export const PUBLIC_BODY_BYTES = 16 * 1024

const DEADLINE = Symbol('judgeflow body deadline')
type WithDeadline = IncomingMessage & { [DEADLINE]?: AbortSignal }

/** Why a body was not read whole. */
export type BodyCut = 'too large' | 'too slow' | 'closed'

/**
 * Starts the clock on the request's body, once (later calls return the same deadline): when it has
 * not all arrived `timeoutMs` after the headers, the deadline's signal aborts — the body reader
 * stops and the request is answered 408 — and when the request was answered already (refused
 * before its body was read), its connection is closed, since nobody waits for the rest. Undefined
 * for a request without a body.
 */
export function armBodyDeadline(event: H3Event, timeoutMs: number): AbortSignal | undefined {
  const req = event.node.req as WithDeadline
  if (req[DEADLINE] || !hasBody(req)) return req[DEADLINE]
  const deadline = new AbortController()
  req[DEADLINE] = deadline.signal
  const timer = setTimeout(() => {
    if (req.complete) return
    deadline.abort()
    if (event.node.res.headersSent) req.socket.destroy()
  }, timeoutMs).unref()
  const done = () => clearTimeout(timer)
  req.once('end', done)
  req.once('close', done)
  return deadline.signal
}

function hasBody(req: IncomingMessage): boolean {
  return Number(req.headers['content-length']) > 0 || req.headers['transfer-encoding'] !== undefined
}

/**
 * Reads the body, counting bytes as they arrive: one without a Content-Length (a chunked upload)
 * is cut off at `maxBytes` instead of being buffered whole first, one still arriving when
 * `deadline` aborts is cut off then, and one whose client goes away is dropped. Whatever was
 * buffered of a body cut off is let go at once.
 */
export function readBodyWithin(req: IncomingMessage, maxBytes: number, deadline?: AbortSignal): Promise<{ body: Buffer } | { cut: BodyCut }> {
  return new Promise((resolve) => {
    let chunks: Buffer[] = []
    let size = 0
    const settle = (result: { body: Buffer } | { cut: BodyCut }) => {
      req.off('data', onData).off('end', onEnd).off('error', onClosed).off('close', onClosed)
      deadline?.removeEventListener('abort', onTimeout)
      chunks = []
      resolve(result)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= maxBytes) return void chunks.push(chunk)
      // Not read further: the client is slowed down by TCP until the connection is closed.
      req.pause()
      settle({ cut: 'too large' })
    }
    const onEnd = () => settle({ body: Buffer.concat(chunks) })
    const onClosed = () => settle({ cut: 'closed' })
    const onTimeout = () => {
      settle({ cut: 'too slow' })
      // What still trickles in is dropped as it comes, until the connection closes after the 408.
      req.resume()
    }
    if (deadline?.aborted) return onTimeout()
    req.on('data', onData).once('end', onEnd).once('error', onClosed).once('close', onClosed)
    deadline?.addEventListener('abort', onTimeout, { once: true })
  })
}
