import { JudgeflowError } from '../errors'

export interface ProviderErrorDetails {
  provider: string
  status?: number
  retryable: boolean
  retry_after_ms?: number
}

/** Reads Retry-After (seconds or an HTTP date) or retry-after-ms into milliseconds. */
export function retryAfterMs(headers: { get(name: string): string | null } | undefined, now = Date.now()): number | undefined {
  const ms = headers?.get('retry-after-ms')
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms))
  const value = headers?.get('retry-after')
  if (!value) return undefined
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500
}

/** Removes secret values (API keys) from a message before it is stored, logged or returned. */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text
  for (const secret of secrets) if (secret && secret.length >= 6) out = out.split(secret).join('[redacted]')
  return out.replace(/\b(sk|sk-ant|sk-proj)-[A-Za-z0-9_-]{8,}/g, '[redacted]')
}

/**
 * Normalizes an SDK error (both SDKs share the same shape: status + headers on API errors,
 * APIConnectionError / APIConnectionTimeoutError for the network) into a PROVIDER_ERROR.
 */
export function providerError(provider: string, modelRef: string, error: unknown, secrets: readonly (string | undefined)[]): JudgeflowError {
  const e = error as { status?: unknown, headers?: { get(n: string): string | null }, message?: string, name?: string, constructor?: { name?: string } }
  const kind = e?.constructor?.name ?? e?.name ?? ''
  const message = redact(String(e?.message ?? error), secrets)
  if (typeof e?.status === 'number') {
    const details: ProviderErrorDetails = { provider, status: e.status, retryable: isRetryableStatus(e.status), retry_after_ms: retryAfterMs(e.headers) }
    return new JudgeflowError('PROVIDER_ERROR', `${modelRef} answered HTTP ${e.status}: ${message}`, { category: 'provider', details })
  }
  if (error instanceof SyntaxError) {
    // A body cut short or garbled on the way is as transient as a dropped connection.
    return new JudgeflowError('PROVIDER_ERROR', `${modelRef} sent a malformed response: ${message}`, { category: 'provider', details: { provider, retryable: true } satisfies ProviderErrorDetails })
  }
  if (/Connection|Timeout/.test(kind) || isNetworkError(error)) {
    return new JudgeflowError('PROVIDER_ERROR', `${modelRef} could not be reached: ${message}`, { category: 'provider', details: { provider, retryable: true } satisfies ProviderErrorDetails })
  }
  return new JudgeflowError('PROVIDER_ERROR', `${modelRef} failed: ${message}`, { category: 'provider', details: { provider, retryable: false } satisfies ProviderErrorDetails })
}

const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT'])

/** A connection that dropped while the body was read surfaces as a bare fetch TypeError ("terminated"). */
function isNetworkError(error: unknown): boolean {
  for (let e = error as { code?: string, message?: string, cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (e.code && NETWORK_CODES.has(e.code)) return true
    if (e instanceof TypeError && /terminated|fetch failed|other side closed/i.test(e.message ?? '')) return true
  }
  return false
}
