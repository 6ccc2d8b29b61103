/**
 * How many case runs a dataset run keeps in flight, adapting to the provider: it starts at the
 * asked concurrency, halves it and pauses when a run ends rate-limited (for the Retry-After the
 * provider sent, or a growing back-off), and earns one more slot back per `limit` clean runs, up
 * to the asked concurrency again (additive increase, multiplicative decrease). A storm of 429s so
 * slows the run down instead of erroring its cases.
 */
export interface PacerOptions {
  /** The asked concurrency: never more in flight. */
  concurrency: number
  /** The pause after a rate-limited run that came without Retry-After; doubles while storms go on. */
  baseBackoffMs?: number
  /** The longest pause. */
  maxBackoffMs?: number
}

export class AdaptivePacer {
  readonly concurrency: number
  private current: number
  private running = 0
  private cleanSinceChange = 0
  private resumeAt = 0
  private backoffMs: number
  private readonly baseBackoffMs: number
  private readonly maxBackoffMs: number

  constructor(options: PacerOptions) {
    this.concurrency = Math.max(1, Math.floor(options.concurrency))
    this.current = this.concurrency
    this.baseBackoffMs = options.baseBackoffMs ?? 1_000
    this.maxBackoffMs = options.maxBackoffMs ?? 60_000
    this.backoffMs = this.baseBackoffMs
  }

  /** Runs allowed in flight now. */
  get limit(): number {
    return this.current
  }

  get inFlight(): number {
    return this.running
  }

  /** 0 when a run may start at `now`; else how long until one may (Infinity while every slot is taken). */
  waitMs(now: number): number {
    if (this.running >= this.current) return Infinity
    return Math.max(0, this.resumeAt - now)
  }

  started(): void {
    this.running++
  }

  /** A run ended; `rateLimited` when the provider refused it for its rate (its Retry-After in ms, if it sent one). */
  finished(now: number, outcome: { rateLimited: false } | { rateLimited: true, retryAfterMs?: number }): void {
    this.running = Math.max(0, this.running - 1)
    if (!outcome.rateLimited) {
      this.backoffMs = this.baseBackoffMs
      if (this.current < this.concurrency && ++this.cleanSinceChange >= this.current) {
        this.current++
        this.cleanSinceChange = 0
      }
      return
    }
    this.cleanSinceChange = 0
    if (now < this.resumeAt) {
      // Runs that were in flight when the storm began: one storm halves the limit once.
      if (outcome.retryAfterMs !== undefined) this.resumeAt = Math.max(this.resumeAt, now + Math.min(outcome.retryAfterMs, this.maxBackoffMs))
      return
    }
    this.current = Math.max(1, Math.floor(this.current / 2))
    const pause = outcome.retryAfterMs ?? this.backoffMs
    this.backoffMs = Math.min(this.maxBackoffMs, this.backoffMs * 2)
    this.resumeAt = now + Math.min(pause, this.maxBackoffMs)
  }
}
