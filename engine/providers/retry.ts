import { JudgeflowError } from '../errors'

export interface RetryPolicy {
  /** Retries after the first call (0 = one call only). */
  maxRetries: number
  baseDelayMs: number
  maxDelayMs: number
  /** The longest Retry-After honoured; longer waits fail the call instead. */
  maxRetryAfterMs: number
  /** One call's time limit; a call that exceeds it counts as a transient failure. */
  callTimeoutMs: number
}

export const defaultRetryPolicy: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  callTimeoutMs: 120_000,
}

/** Exponential backoff with equal jitter: half fixed, half random, capped. */
export function backoffDelay(retry: number, policy: RetryPolicy, random = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry)
  return ceiling / 2 + random() * (ceiling / 2)
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve() }, ms)
    const onAbort = () => { clearTimeout(timer); reject(signal!.reason) }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

function retryInfo(error: unknown): { retryable: boolean, afterMs?: number } {
  if (!(error instanceof JudgeflowError)) return { retryable: false }
  const details = error.details as { retryable?: boolean, retry_after_ms?: number } | undefined
  return { retryable: details?.retryable === true, afterMs: details?.retry_after_ms }
}

/**
 * Calls `attempt` until it succeeds, a non-transient error occurs, or the retries are spent.
 * Each call gets its own time limit; the caller's signal stops everything at once.
 */
export async function withRetries<T>(
  attempt: (signal: AbortSignal) => Promise<T>,
  policy: RetryPolicy,
  options: { signal?: AbortSignal, onRetry?: (info: { retry: number, delayMs: number, error: unknown }) => void } = {},
): Promise<{ value: T, retries: number }> {
  for (let retry = 0; ; retry++) {
    const callSignal = options.signal
      ? AbortSignal.any([options.signal, AbortSignal.timeout(policy.callTimeoutMs)])
      : AbortSignal.timeout(policy.callTimeoutMs)
    try {
      return { value: await attempt(callSignal), retries: retry }
    }
    catch (error) {
      if (options.signal?.aborted) throw error
      const timedOut = callSignal.aborted
      const info = timedOut ? { retryable: true } : retryInfo(error)
      const failure = timedOut
        ? new JudgeflowError('PROVIDER_ERROR', `the call took longer than ${policy.callTimeoutMs} ms`, { category: 'provider', cause: error })
        : error
      if (!info.retryable || retry >= policy.maxRetries) throw withAttempts(failure, retry + 1)
      if (info.afterMs !== undefined && info.afterMs > policy.maxRetryAfterMs) throw withAttempts(failure, retry + 1)
      const delayMs = Math.max(info.afterMs ?? 0, backoffDelay(retry, policy))
      options.onRetry?.({ retry: retry + 1, delayMs, error })
      await sleep(delayMs, options.signal)
    }
  }
}

function withAttempts(error: unknown, calls: number): unknown {
  if (!(error instanceof JudgeflowError) || calls === 1) return error
  return new JudgeflowError(error.code, `${error.message} (after ${calls} calls)`, { category: error.category, details: error.details, cause: error.cause })
}
