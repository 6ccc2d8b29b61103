/**
 * One HTTP request and its answer over node:http(s), its host checked by the address policy:
 * an IP literal before the request exists, a name inside the request's `lookup`. Connections are
 * kept alive between calls in a pool of each policy's own: a pooled connection is to an address
 * that policy checked when the connection was made, and no other policy's call uses it. A call
 * that finds its reused connection closed by the server (reset before any answer) is sent once
 * more on a new one.
 */
import http from 'node:http'
import https from 'node:https'
import { isIP } from 'node:net'
import type { Readable } from 'node:stream'
import zlib from 'node:zlib'
import { JudgeflowError } from '../errors'
import { type CheckedPolicy, type ResolveHost, guardedLookup, refused, urlHost } from './address-policy'

export interface ExchangeRequest {
  url: URL
  method: string
  headers: Record<string, string>
  body?: Buffer
  policy: CheckedPolicy
  resolve?: ResolveHost
  signal: AbortSignal
  /** The URL as messages show it (see shownUrl). */
  shown: string
}

export interface Answer {
  status: number
  statusMessage: string
  /** Every response header, names in lower case; repeated ones joined with ", ". */
  headers: Record<string, string>
  /** The body, decoded from gzip, deflate or br; more than `maxBytes` fails with HTTP_FAILED. */
  read: (maxBytes: number) => Promise<Buffer>
  /** Drops the body unread (a redirect's, a retried answer's). */
  discard: () => void
}

/** How long an idle pooled connection is kept: under the 5 s most servers (Node's among them) keep one open. */
const IDLE_MS = 4000
const pools = new WeakMap<CheckedPolicy, { http: http.Agent, https: https.Agent }>()

function poolOf(policy: CheckedPolicy, secure: boolean): http.Agent {
  let pool = pools.get(policy)
  if (!pool) {
    pool = { http: new http.Agent({ keepAlive: true, timeout: IDLE_MS }), https: new https.Agent({ keepAlive: true, timeout: IDLE_MS }) }
    pools.set(policy, pool)
  }
  return secure ? pool.https : pool.http
}

/** Sends one request; resolves once the answer's status and headers are in. */
export function exchange(request: ExchangeRequest): Promise<Answer> {
  const { url, policy, shown } = request
  const reason = policy.urlRefusal(url)
  if (reason) return Promise.reject(refused(shown, reason))
  checkHeaders(request.headers, shown)
  return send(request, true).catch((error: unknown) => {
    if (!(error as { reusedSocket?: boolean }).reusedSocket || request.signal.aborted) throw error
    return send(request, false)
  })
}

function send(request: ExchangeRequest, pooled: boolean): Promise<Answer> {
  const { url, policy, shown } = request
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http
    const req = client.request(url, {
      method: request.method,
      headers: request.body ? { ...request.headers, 'content-length': String(request.body.length) } : request.headers,
      agent: pooled ? poolOf(policy, url.protocol === 'https:') : false,
      signal: request.signal,
      // Node resolves no IP literal (urlRefusal has checked it); a name is resolved and checked here.
      ...(isIP(urlHost(url)) ? {} : { lookup: guardedLookup(policy, shown, request.resolve) }),
    }, (res) => {
      resolve({
        status: res.statusCode ?? 0,
        statusMessage: res.statusMessage ?? '',
        headers: flatHeaders(res.headers),
        read: maxBytes => readBody(res, maxBytes, shown),
        discard: () => res.destroy(),
      })
    })
    req.on('error', (error: NodeJS.ErrnoException) => {
      // A pooled connection the server had closed: reset before any answer, safe to send again.
      const stale = req.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE')
      reject(stale ? Object.assign(error, { reusedSocket: true }) : error)
    })
    req.end(request.body)
  })
}

/** Header names and values Node would refuse, named without the value (it may be a secret). */
function checkHeaders(headers: Record<string, string>, shown: string): void {
  for (const [name, value] of Object.entries(headers)) {
    try {
      http.validateHeaderName(name)
      http.validateHeaderValue(name, value)
    }
    catch {
      throw new JudgeflowError('HTTP_REFUSED', `${shown} is refused: the header "${name.slice(0, 100)}" has a name or value that cannot be sent (a line break or another control character).`, { details: { reason: 'header' } })
    }
  }
}

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return out
}

const DECODERS: Record<string, () => zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress> = {
  'gzip': () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  'deflate': () => zlib.createInflate(),
  'br': () => zlib.createBrotliDecompress(),
}

function readBody(res: http.IncomingMessage, maxBytes: number, shown: string): Promise<Buffer> {
  const tooLarge = () => new JudgeflowError('HTTP_FAILED', `${shown} answered more than ${maxBytes} bytes, the most a response may hold; ask for less.`, {
    category: 'provider', details: { reason: 'too_large', limit: maxBytes },
  })
  const decoder = DECODERS[(res.headers['content-encoding'] ?? '').trim().toLowerCase()]
  const declared = Number(res.headers['content-length'])
  if (!decoder && declared > maxBytes) {
    res.destroy()
    return Promise.reject(tooLarge())
  }
  const stream: Readable = decoder ? res.pipe(decoder()) : res
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let failed = false
    const fail = (error: Error) => {
      if (failed) return
      failed = true
      reject(error)
      res.destroy()
      stream.destroy()
    }
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBytes) fail(tooLarge())
      else chunks.push(chunk)
    })
    stream.on('end', () => resolve(Buffer.concat(chunks)))
    stream.on('error', fail)
    if (stream !== res) res.on('error', fail)
    // A connection dropped before the body's end: 'aborted' (then 'error' on newer Node).
    res.on('aborted', () => fail(Object.assign(new Error('the connection closed before the response ended'), { code: 'ECONNRESET' })))
  })
}
