/**
 * `httpCall`: one call of the system under test, as the `http` step makes it. The whole call —
 * redirects, retries and their waits — holds to one time limit; every hop's address is checked
 * by the address policy before anything connects to it.
 */
import { JudgeflowError, isAbortError } from '../errors'
import { retryAfterMs } from '../providers/errors'
import { backoffDelay, defaultRetryPolicy, sleep } from '../providers/retry'
import { DEFAULT_MAX_JSON_DEPTH, readJson } from '../text/safe-json'
import { type AddressPolicy, CheckedPolicy, type ResolveHost } from './address-policy'
import { type Answer, exchange } from './exchange'
import { type Hop, MAX_REDIRECTS, isRedirect, nextHop, shownText, shownUrl } from './redirects'

export const DEFAULT_HTTP_TIMEOUT_MS = 30_000
/** The most bytes a response may hold (after decompression). */
export const MAX_RESPONSE_BYTES = 10 * 1024 * 1024
/** The longest Retry-After honoured; an answer asking for more fails the call. */
export const MAX_RETRY_AFTER_MS = 60_000
/** Characters of a response body an error quotes. */
export const BODY_EXCERPT_CHARS = 500

export interface HttpCallOptions {
  url: string
  /** GET by default. */
  method?: string
  headers?: Record<string, string>
  /** A string or bytes are sent as they are; any other value as JSON (content-type application/json unless set). */
  body?: unknown
  /** For the whole call, redirects, retries and waits included. */
  timeoutMs?: number
  /** Calls made again after a 429 or 5xx that is not expected (0: one call). */
  retries?: number
  /**
   * The statuses that succeed; any 2xx when not given. A redirect whose status is listed is not
   * followed. `any`: every final status is the answer (redirects followed), a 429 is still retried.
   */
  expectStatus?: number | readonly number[] | 'any'
  policy: AddressPolicy | CheckedPolicy
  signal?: AbortSignal
  maxResponseBytes?: number
  /** The deepest JSON body parsed (JUDGEFLOW_MAX_JSON_DEPTH); a deeper one gives `json: null`. */
  maxJsonDepth?: number
  /** How host names are resolved; dns.lookup unless given (tests). */
  resolve?: ResolveHost
}

export interface HttpResult {
  status: number
  /** Every response header, names in lower case. */
  headers: Record<string, string>
  text: string
  /** The body parsed when it is JSON, else null. */
  json: unknown
  /** From the last call's request to its body's end, its redirects included. */
  latency_ms: number
  /** Calls made, retries included. */
  attempts: number
}

interface Call {
  first: Hop
  policy: CheckedPolicy
  resolve?: ResolveHost
  signal: AbortSignal
  maxBytes: number
  /** A redirect whose status is expected is the answer, not followed. */
  expected: (status: number) => boolean
}

const checkedPolicies = new WeakMap<AddressPolicy, CheckedPolicy>()
/** The policy with its patterns read, once per policy object: its connections are kept alive together (exchange.ts). */
function checked(policy: AddressPolicy | CheckedPolicy): CheckedPolicy {
  if (policy instanceof CheckedPolicy) return policy
  let found = checkedPolicies.get(policy)
  if (!found) checkedPolicies.set(policy, found = new CheckedPolicy(policy))
  return found
}

/** Calls `url`; throws HTTP_REFUSED, HTTP_FAILED or CANCELLED saying what happened, naming the URL without its query's values. */
export async function httpCall(options: HttpCallOptions): Promise<HttpResult> {
  const url = parseUrl(options.url)
  const method = (options.method ?? 'GET').toUpperCase()
  const shown = `${method} ${shownUrl(url)}`
  const timeoutMs = options.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS
  const timeout = AbortSignal.timeout(timeoutMs)
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
  const deadline = Date.now() + timeoutMs
  const expected = expectedStatus(options.expectStatus)
  const call: Call = {
    first: { url, method, ...requestBody(options.headers ?? {}, options.body) },
    policy: checked(options.policy),
    resolve: options.resolve,
    signal,
    maxBytes: options.maxResponseBytes ?? MAX_RESPONSE_BYTES,
    expected: options.expectStatus === 'any' ? () => false : expected.test,
  }
  const retries = options.retries ?? 0
  try {
    for (let attempt = 0; ; attempt++) {
      const started = performance.now()
      const { answer, hop } = await followRedirects(call)
      const body = hop.method === 'HEAD' ? Buffer.alloc(0) : await answer.read(call.maxBytes)
      const latency = Math.round(performance.now() - started)
      const text = decodeText(body, answer.headers['content-type'])
      const retried429 = options.expectStatus === 'any' && answer.status === 429 && attempt < retries
      if (expected.test(answer.status) && !retried429) {
        return { status: answer.status, headers: answer.headers, text, json: parseJson(text, options.maxJsonDepth), latency_ms: latency, attempts: attempt + 1 }
      }
      const failure = statusError(hop, answer, text, expected.text, attempt + 1)
      if (!(answer.status === 429 || answer.status >= 500) || attempt >= retries) throw failure
      const askedMs = retryAfterMs({ get: name => answer.headers[name] ?? null })
      if (askedMs !== undefined && askedMs > MAX_RETRY_AFTER_MS) throw withNote(failure, `its Retry-After asks for ${Math.ceil(askedMs / 1000)} s, more than the ${MAX_RETRY_AFTER_MS / 1000} s a retry waits`)
      const waitMs = Math.max(askedMs ?? 0, backoffDelay(attempt, defaultRetryPolicy))
      if (Date.now() + waitMs >= deadline) throw withNote(failure, `the next try, in ${Math.ceil(waitMs)} ms, would come after the time limit (${timeoutMs} ms)`)
      await sleep(waitMs, signal)
    }
  }
  catch (error) {
    if (options.signal?.aborted) throw new JudgeflowError('CANCELLED', `${shown} was stopped: its run was cancelled.`, { cause: error })
    if (timeout.aborted) {
      throw new JudgeflowError('HTTP_FAILED', `${shown} did not finish within ${timeoutMs} ms, its time limit: make the service answer sooner or raise timeout_ms.`, {
        category: 'provider', details: { reason: 'timeout', limit: timeoutMs },
      })
    }
    if (error instanceof JudgeflowError) throw error
    throw networkError(shown, error)
  }
}

async function followRedirects(call: Call): Promise<{ answer: Answer, hop: Hop }> {
  let hop = call.first
  for (let redirects = 0; ; redirects++) {
    const answer = await exchange({ ...hop, policy: call.policy, resolve: call.resolve, signal: call.signal, shown: `${hop.method} ${shownUrl(hop.url)}` })
    if (!isRedirect(answer.status, answer.headers) || call.expected(answer.status)) return { answer, hop }
    answer.discard()
    if (redirects === MAX_REDIRECTS) {
      throw new JudgeflowError('HTTP_FAILED', `${call.first.method} ${shownUrl(call.first.url)} redirected more than ${MAX_REDIRECTS} times (the last to ${shownUrl(hop.url)}): call the final address.`, {
        category: 'provider', details: { reason: 'redirects', limit: MAX_REDIRECTS },
      })
    }
    hop = nextHop(hop, answer.status, answer.headers.location!)
  }
}

function parseUrl(text: string): URL {
  try {
    return new URL(text)
  }
  catch {
    throw new JudgeflowError('HTTP_REFUSED', `"${shownText(text)}" is not a URL: write an absolute http:// or https:// URL.`, { details: { reason: 'url' } })
  }
}

function requestBody(headers: Record<string, string>, body: unknown): { headers: Record<string, string>, body?: Buffer } {
  if (body === undefined) return { headers }
  if (typeof body === 'string') return { headers, body: Buffer.from(body) }
  if (body instanceof Uint8Array) return { headers, body: Buffer.from(body) }
  const typed = Object.keys(headers).some(name => name.toLowerCase() === 'content-type')
  return { headers: typed ? headers : { ...headers, 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) }
}

function expectedStatus(expect: number | readonly number[] | 'any' | undefined): { test: (status: number) => boolean, text: string } {
  if (expect === 'any') return { test: () => true, text: 'any status' }
  if (expect === undefined) return { test: status => status >= 200 && status < 300, text: '2xx' }
  const list = typeof expect === 'number' ? [expect] : expect
  return { test: status => list.includes(status), text: list.join(' or ') }
}

function statusError(hop: Hop, answer: Answer, text: string, expected: string, calls: number): JudgeflowError {
  const trimmed = text.trim()
  const excerpt = trimmed.length > BODY_EXCERPT_CHARS ? `${trimmed.slice(0, BODY_EXCERPT_CHARS)}…` : trimmed
  const status = `${answer.status}${answer.statusMessage ? ` ${answer.statusMessage}` : ''}`
  const after = calls > 1 ? ` after ${calls} calls` : ''
  return new JudgeflowError('HTTP_FAILED', `${hop.method} ${shownUrl(hop.url)} answered ${status} (expected ${expected})${after}: ${excerpt || '(empty body)'}`, {
    category: 'provider', details: { reason: 'status', status: answer.status, attempts: calls },
  })
}

function withNote(error: JudgeflowError, note: string): JudgeflowError {
  return new JudgeflowError(error.code, `${error.message}\n(not retried: ${note})`, { category: error.category, details: error.details })
}

function networkError(shown: string, error: unknown): JudgeflowError {
  const e = error as { code?: string, message?: string }
  const message = e?.message ?? String(error)
  const why = isAbortError(error) ? 'the request was aborted' : e?.code && !message.includes(e.code) ? `${e.code}: ${message}` : message
  return new JudgeflowError('HTTP_FAILED', `${shown} failed: ${why}.`, { category: 'provider', details: { reason: 'network', ...(e?.code ? { error_code: e.code } : {}) }, cause: error })
}

function decodeText(body: Buffer, contentType: string | undefined): string {
  const charset = /charset\s*=\s*"?([\w-]+)/i.exec(contentType ?? '')?.[1]
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body)
  }
  catch {
    return new TextDecoder('utf-8').decode(body)
  }
}

function parseJson(text: string, maxDepth = DEFAULT_MAX_JSON_DEPTH): unknown {
  if (!text.trim()) return null
  const read = readJson(text, maxDepth)
  return read.ok ? read.value : null
}
