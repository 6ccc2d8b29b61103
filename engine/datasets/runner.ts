import { setMaxListeners } from 'node:events'
import { setTimeout as sleep } from 'node:timers/promises'
import { AdaptivePacer } from './pacer'
import type { CaseResult } from './schema'

/** One run of one case to do. */
export interface CaseTask {
  case_id: string
  /** 1-based. */
  repeat: number
}

/** How a case's run ended: a result to keep, or refused by the provider for its rate (to run again later). */
export type CaseRunOutcome
  = | { kind: 'result', result: CaseResult }
    | { kind: 'rate_limited', retryAfterMs?: number, error: string }

export interface RunCasesOptions {
  /** The runs still to do, in order. */
  tasks: readonly CaseTask[]
  /** Runs in flight at most (the pacer lowers it while the provider rate-limits). */
  concurrency: number
  /** Runs one case; rejects only for a failure of judgeflow itself, which stops the whole dataset run. */
  execute: (task: CaseTask, signal: AbortSignal) => Promise<CaseRunOutcome>
  /** Keeps a finished case's result; awaited before the case counts as done. */
  commit: (result: CaseResult) => void | Promise<void>
  /** Stops starting cases, and aborts those in flight. */
  signal?: AbortSignal
  /** How often one case may be rate-limited before it is errored. */
  maxRateLimited?: number
  /** Pacer back-off when the provider sends no Retry-After. */
  baseBackoffMs?: number
  now?: () => number
  /** Waited before each case starts (promptfoo's --delay). */
  delayMs?: number
  /** How the delay is waited; resolves early when the signal aborts. */
  wait?: (ms: number, signal: AbortSignal) => Promise<void>
}

/**
 * Runs the cases of a dataset run: as many at once as the pacer allows, a rate-limited case put
 * back at the head of the queue (errored only after `maxRateLimited` tries), every result
 * committed as it comes. Resolves when every task has a committed result or the signal aborts.
 */
export async function runCases(options: RunCasesOptions): Promise<void> {
  const now = options.now ?? Date.now
  const maxRateLimited = options.maxRateLimited ?? 20
  const pacer = new AdaptivePacer({ concurrency: options.concurrency, baseBackoffMs: options.baseBackoffMs })
  const queue = [...options.tasks]
  const limited = new Map<string, number>()
  const inFlight = new Set<Promise<void>>()
  const controller = new AbortController()
  const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal
  // Each case in flight listens for the abort, and so does the loop below.
  setMaxListeners(options.concurrency + 8, signal)
  let failure: unknown
  let wake: (() => void) | undefined

  const launch = (task: CaseTask) => {
    pacer.started()
    const running = (async () => {
      let outcome: CaseRunOutcome
      try {
        if (options.delayMs) {
          await (options.wait ?? pause)(options.delayMs, signal)
          if (signal.aborted) return
        }
        outcome = await options.execute(task, signal)
      }
      catch (error) {
        pacer.finished(now(), { rateLimited: false })
        if (!signal.aborted) {
          failure ??= error
          controller.abort(error)
        }
        return
      }
      if (outcome.kind === 'rate_limited') {
        pacer.finished(now(), { rateLimited: true, retryAfterMs: outcome.retryAfterMs })
        const key = `${task.case_id}#${task.repeat}`
        const times = (limited.get(key) ?? 0) + 1
        limited.set(key, times)
        if (times < maxRateLimited) {
          queue.unshift(task)
          return
        }
        outcome = { kind: 'result', result: { ...task, status: 'errored', error: `rate-limited by the provider ${times} times: ${outcome.error}` } }
      }
      else {
        pacer.finished(now(), { rateLimited: false })
      }
      if (signal.aborted) return
      // The slot is free: the next case starts while this one's result is written.
      wake?.()
      try {
        await options.commit(outcome.result)
      }
      catch (error) {
        failure ??= error
        controller.abort(error)
      }
    })().finally(() => {
      inFlight.delete(running)
      wake?.()
    })
    inFlight.add(running)
  }

  while (!signal.aborted && (queue.length || inFlight.size)) {
    let waitMs = pacer.waitMs(now())
    while (queue.length && waitMs === 0) {
      launch(queue.shift()!)
      waitMs = pacer.waitMs(now())
    }
    if (!queue.length && !inFlight.size) break
    await new Promise<void>((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined
      const done = () => {
        if (timer) clearTimeout(timer)
        signal.removeEventListener('abort', done)
        wake = undefined
        resolve()
      }
      wake = done
      signal.addEventListener('abort', done, { once: true })
      if (queue.length && Number.isFinite(waitMs)) timer = setTimeout(done, waitMs)
    })
  }
  await Promise.allSettled([...inFlight])
  if (failure) throw failure
}

async function pause(ms: number, signal: AbortSignal): Promise<void> {
  await sleep(ms, undefined, { signal }).catch(() => {})
}
