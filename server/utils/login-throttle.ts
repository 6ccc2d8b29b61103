/**
 * Back-off for wrong tokens, per client address. After `lockAfter` failures in a row the client
 * is locked out for `baseMs`, doubling with every further failure up to `maxMs`. While locked out,
 * a wrong token is refused without being counted, and the right token is let through and resets
 * the count: a lock-out never keeps the token's owner out, whoever else shares the address. The
 * price is that a locked-out address can still tell a right guess from a wrong one, so what makes
 * guessing hopeless is the token's length (at least 32 characters), not this back-off. Memory is
 * bounded: a client not seen for `forgetMs` is forgotten, and past `maxClients` the client seen
 * least recently goes first.
 */
export interface ThrottleOptions {
  lockAfter: number
  baseMs: number
  maxMs: number
  forgetMs: number
  maxClients: number
}

interface Entry { failures: number, lockedUntil: number, lastSeen: number }

export const DEFAULT_THROTTLE: ThrottleOptions = { lockAfter: 5, baseMs: 30_000, maxMs: 15 * 60_000, forgetMs: 60 * 60_000, maxClients: 10_000 }

export class LoginThrottle {
  // A Map keeps insertion order and entries are re-inserted when touched: the first is the stalest.
  private readonly clients = new Map<string, Entry>()
  private readonly options: ThrottleOptions

  constructor(options: Partial<ThrottleOptions> = {}) {
    this.options = { ...DEFAULT_THROTTLE, ...options }
  }

  /** How long `client` must still wait, in milliseconds; 0 when it may try now. */
  retryAfterMs(client: string, now = Date.now()): number {
    const entry = this.current(client, now)
    return entry ? Math.max(0, entry.lockedUntil - now) : 0
  }

  /** Records a wrong token; returns the lock-out it starts (0 while under `lockAfter`). */
  fail(client: string, now = Date.now()): number {
    const { lockAfter, baseMs, maxMs } = this.options
    const failures = (this.current(client, now)?.failures ?? 0) + 1
    const lockMs = failures < lockAfter ? 0 : Math.min(maxMs, baseMs * 2 ** Math.min(failures - lockAfter, 30))
    this.clients.delete(client)
    if (this.clients.size >= this.options.maxClients) this.evict(now)
    this.clients.set(client, { failures, lockedUntil: now + lockMs, lastSeen: now })
    return lockMs
  }

  succeed(client: string): void {
    this.clients.delete(client)
  }

  get size(): number {
    return this.clients.size
  }

  private stale(entry: Entry, now: number): boolean {
    return now - entry.lastSeen >= this.options.forgetMs && now >= entry.lockedUntil
  }

  private current(client: string, now: number): Entry | undefined {
    const entry = this.clients.get(client)
    if (entry && this.stale(entry, now)) this.clients.delete(client)
    return this.clients.get(client)
  }

  private evict(now: number): void {
    for (const [client, entry] of this.clients) if (this.stale(entry, now)) this.clients.delete(client)
    while (this.clients.size >= this.options.maxClients) this.clients.delete(this.clients.keys().next().value!)
  }
}
