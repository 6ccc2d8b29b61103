/**
 * The spans each client address may send: a token bucket per client, filled at `perSecond` and
 * holding at most a second's worth or one largest request, whichever is more (so a request of
 * JUDGEFLOW_OTLP_MAX_SPANS spans can always pass once the bucket is full). A request is taken whole
 * or refused whole, with how long to wait. Memory is bounded: past `maxClients`, the client seen
 * least recently is forgotten (a forgotten client starts full, as a new one does).
 */
export interface SpanRateOptions {
  perSecond: number
  /** The largest request's spans. */
  largest: number
  maxClients?: number
}

interface Bucket { tokens: number, at: number }

const DEFAULT_MAX_CLIENTS = 10_000

export class SpanRate {
  // A Map keeps insertion order and buckets are re-inserted when touched: the first is the stalest.
  private readonly buckets = new Map<string, Bucket>()
  private readonly capacity: number

  constructor(private readonly options: SpanRateOptions) {
    this.capacity = Math.max(options.perSecond, options.largest)
  }

  /** Takes `spans` from the client's bucket: 0 when taken, else the milliseconds to wait until they could be. */
  take(client: string, spans: number, now = Date.now()): number {
    const bucket = this.current(client, now)
    if (spans > bucket.tokens) return Math.ceil(((Math.min(spans, this.capacity) - bucket.tokens) / this.options.perSecond) * 1000)
    bucket.tokens -= spans
    return 0
  }

  /** 0 when the client may send a span now, else the milliseconds until it may (checked before its request is read). */
  waitBeforeAny(client: string, now = Date.now()): number {
    const { tokens } = this.current(client, now)
    return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) / this.options.perSecond) * 1000)
  }

  get size(): number {
    return this.buckets.size
  }

  private current(client: string, now: number): Bucket {
    const found = this.buckets.get(client)
    this.buckets.delete(client)
    const bucket = found
      ? { tokens: Math.min(this.capacity, found.tokens + ((now - found.at) / 1000) * this.options.perSecond), at: now }
      : { tokens: this.capacity, at: now }
    if (this.buckets.size >= (this.options.maxClients ?? DEFAULT_MAX_CLIENTS)) this.buckets.delete(this.buckets.keys().next().value!)
    this.buckets.set(client, bucket)
    return bucket
  }
}
