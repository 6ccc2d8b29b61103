/**
 * The novelty memory: the most recent trace vectors, scanned brute force. 1,000 × 384 floats is
 * 1.5 MB; a linear scan over one contiguous array beats any index at this size. The scan runs as
 * WebAssembly SIMD (wasm/scan.wat) where the runtime has it and the dimensions are a multiple of
 * 4, else as plain JavaScript; both compute the same float64 sums.
 */
import { JudgeflowError } from '../errors'
import { SCAN_WASM_BASE64 } from './wasm/scan'

export interface VectorCacheOptions {
  maxElements?: number
  dimensions?: number
  /** How long a vector counts against novelty; a topic revisited later is novel again. */
  ttlMs?: number
  /** Injected in tests to move time without waiting. */
  now?: () => number
  /** false: scan in plain JavaScript even where WebAssembly SIMD is available. */
  simd?: boolean
}

/** Which entries a scan compares with: only those younger than `ttlMs`, only the newest `maxElements`. */
export interface CacheWindow {
  ttlMs?: number
  maxElements?: number
}

/**
 * Where novelty is remembered: compares a vector with the recent ones (within the window), then
 * keeps it. One step, so traces scored at the same time each see the ones kept before them. The
 * process's VectorCache, or a stand-in that asks the thread holding it.
 */
export interface NoveltyMemory {
  readonly dimensions: number
  /** The highest similarity to a live entry (undefined when there is none), then the vector is kept. */
  compareAndAdd(vector: Float32Array, window?: CacheWindow): number | undefined | Promise<number | undefined>
}

export class VectorCache implements NoveltyMemory {
  readonly maxElements: number
  readonly dimensions: number
  readonly ttlMs: number
  private readonly now: () => number
  /** Ring buffer: slot i holds floats [i·dimensions, (i+1)·dimensions). */
  private readonly vectors: Float32Array
  /** 1 / L2 norm of each entry (0 for a zero vector), so a scan does one dot product per entry. */
  private readonly inverseNorms: Float64Array
  private readonly addedAt: Float64Array
  /** Scratch for the query, so a scan allocates nothing. */
  private readonly query: Float64Array
  /** The SIMD scan over this cache's own WebAssembly memory, when available. */
  private readonly simd: SimdScan | undefined
  /** Slot the next vector goes to; the live entries are the `count` slots before it. */
  private head = 0
  private count = 0

  constructor({ maxElements = 1000, dimensions = 384, ttlMs = 3_600_000, now = () => Date.now(), simd = true }: VectorCacheOptions = {}) {
    if (!Number.isInteger(maxElements) || maxElements < 1) throw new JudgeflowError('INVALID_CONFIG', `VectorCache: maxElements must be a whole number of at least 1, not ${maxElements}`)
    if (!Number.isInteger(dimensions) || dimensions < 1) throw new JudgeflowError('INVALID_CONFIG', `VectorCache: dimensions must be a whole number of at least 1, not ${dimensions}`)
    if (!(ttlMs > 0)) throw new JudgeflowError('INVALID_CONFIG', `VectorCache: ttlMs must be more than 0, not ${ttlMs}`)
    this.maxElements = maxElements
    this.dimensions = dimensions
    this.ttlMs = ttlMs
    this.now = now
    this.simd = simd && dimensions % 4 === 0 ? simdScan(maxElements, dimensions) : undefined
    this.vectors = this.simd?.vectors ?? new Float32Array(maxElements * dimensions)
    this.inverseNorms = this.simd?.inverseNorms ?? new Float64Array(maxElements)
    this.query = this.simd?.query ?? new Float64Array(dimensions)
    this.addedAt = new Float64Array(maxElements)
  }

  /** Whether scans run as WebAssembly SIMD (else plain JavaScript). */
  get accelerated(): boolean {
    return this.simd !== undefined
  }

  /** Live entries: those added within the last `ttlMs`. */
  get size(): number {
    this.evictExpired()
    return this.count
  }

  /** Stores a copy of the vector, overwriting the oldest entry when the cache is full. */
  add(vector: Float32Array, addedAt = this.now()): void {
    this.checkDimensions(vector, 'add')
    const slot = this.head
    const offset = slot * this.dimensions
    this.vectors.set(vector, offset)
    const norm = normOf(this.vectors, offset, this.dimensions)
    this.inverseNorms[slot] = norm > 0 ? 1 / norm : 0
    this.addedAt[slot] = addedAt
    this.head = (slot + 1) % this.maxElements
    if (this.count < this.maxElements) this.count++
  }

  /**
   * The highest cosine similarity between the vector and a live entry (within `window` when given:
   * a narrower view of the same entries); undefined when there is none. A zero vector (or entry)
   * is similar to nothing: it counts as 0.
   */
  maxSimilarity(vector: Float32Array, window: CacheWindow = {}): number | undefined {
    this.checkDimensions(vector, 'maxSimilarity')
    this.evictExpired()
    const count = this.countWithin(window)
    if (!count) return undefined
    const { dimensions, vectors, inverseNorms, query } = this
    let queryNorm = 0
    for (let i = 0; i < dimensions; i++) {
      query[i] = vector[i]!
      queryNorm += query[i]! * query[i]!
    }
    if (queryNorm === 0) return 0
    // The entries compared are one stretch of the ring, or two when it wraps past the end.
    const start = this.slotBack(count)
    const end = start + count
    const scan = this.simd?.scan ?? ((from: number, to: number) => scanSlots(vectors, inverseNorms, query, dimensions, from, to))
    let best = scan(start, Math.min(end, this.maxElements))
    if (end > this.maxElements) best = Math.max(best, scan(0, end - this.maxElements))
    // Float rounding can put an identical vector a hair above 1.
    return Math.min(1, Math.max(-1, best / Math.sqrt(queryNorm)))
  }

  compareAndAdd(vector: Float32Array, window: CacheWindow = {}): number | undefined {
    const similarity = this.maxSimilarity(vector, window)
    this.add(vector)
    return similarity
  }

  clear(): void {
    this.head = 0
    this.count = 0
  }

  /** The live entries, oldest first, as plain data (for persisting the cache across restarts). */
  snapshot(): { dimensions: number, entries: Array<{ added_at: number, vector: number[] }> } {
    this.evictExpired()
    const entries = []
    const start = this.oldestSlot()
    for (let k = 0; k < this.count; k++) {
      const slot = (start + k) % this.maxElements
      const offset = slot * this.dimensions
      entries.push({ added_at: this.addedAt[slot]!, vector: Array.from(this.vectors.subarray(offset, offset + this.dimensions)) })
    }
    return { dimensions: this.dimensions, entries }
  }

  /** Adds the entries of a snapshot, keeping their ages (expired ones are dropped at the next scan). */
  restore(snapshot: { dimensions: number, entries: Array<{ added_at: number, vector: number[] }> }): void {
    if (snapshot.dimensions !== this.dimensions) throw new JudgeflowError('STORED_RECORD_INVALID', `VectorCache: the snapshot has ${snapshot.dimensions} dimensions, the cache ${this.dimensions}`, { category: 'system' })
    for (const entry of snapshot.entries) this.add(Float32Array.from(entry.vector), entry.added_at)
  }

  private oldestSlot(): number {
    return this.slotBack(this.count)
  }

  /** The slot `n` entries before the head: the oldest of the newest `n`. */
  private slotBack(n: number): number {
    const slot = this.head - n
    return slot < 0 ? slot + this.maxElements : slot
  }

  /** How many of the newest live entries fall within the window (entries are in time order). */
  private countWithin({ ttlMs, maxElements }: CacheWindow): number {
    let n = maxElements === undefined ? this.count : Math.min(this.count, maxElements)
    if (ttlMs === undefined || ttlMs >= this.ttlMs) return n
    const cutoff = this.now() - ttlMs
    while (n > 0 && this.addedAt[this.slotBack(n)]! < cutoff) n--
    return n
  }

  /** Entries are added in time order, so the expired ones are always the oldest few. */
  private evictExpired(): void {
    const cutoff = this.now() - this.ttlMs
    while (this.count > 0 && this.addedAt[this.oldestSlot()]! < cutoff) this.count--
  }

  private checkDimensions(vector: Float32Array, method: string): void {
    if (!(vector instanceof Float32Array)) throw new JudgeflowError('INTERNAL', `VectorCache.${method}: expected a Float32Array`, { category: 'system' })
    if (vector.length !== this.dimensions) {
      throw new JudgeflowError('INTERNAL', `VectorCache.${method}: expected a vector of ${this.dimensions} dimensions, got ${vector.length}`, { category: 'system' })
    }
  }
}

function normOf(values: Float32Array, offset: number, length: number): number {
  let sum = 0
  for (let i = offset, end = offset + length; i < end; i++) sum += values[i]! * values[i]!
  return Math.sqrt(sum)
}

/**
 * max over slots [from, to) of dot(entry, query) / |entry|. Four entries share each load of the
 * query: V8 cannot hoist typed-array checks out of the loop, so fewer loads is what makes it fast.
 * A last block of fewer than four repeats the final slot instead of having a loop of its own: a
 * repeat cannot change a maximum, and a never-run remainder loop would make V8 deoptimise the scan.
 */
function scanSlots(vectors: Float32Array, inverseNorms: Float64Array, query: Float64Array, dimensions: number, from: number, to: number): number {
  let best = -Infinity
  const last = to - 1
  for (let slot = from; slot < to; slot += 4) {
    const s1 = Math.min(slot + 1, last)
    const s2 = Math.min(slot + 2, last)
    const s3 = Math.min(slot + 3, last)
    let o0 = slot * dimensions
    let o1 = s1 * dimensions
    let o2 = s2 * dimensions
    let o3 = s3 * dimensions
    let d0 = 0
    let d1 = 0
    let d2 = 0
    let d3 = 0
    for (let i = 0; i < dimensions; i++, o0++, o1++, o2++, o3++) {
      const q = query[i]!
      d0 += vectors[o0]! * q
      d1 += vectors[o1]! * q
      d2 += vectors[o2]! * q
      d3 += vectors[o3]! * q
    }
    best = Math.max(best, d0 * inverseNorms[slot]!, d1 * inverseNorms[s1]!, d2 * inverseNorms[s2]!, d3 * inverseNorms[s3]!)
  }
  return best
}

interface SimdScan {
  vectors: Float32Array
  inverseNorms: Float64Array
  query: Float64Array
  scan(from: number, to: number): number
}

let scanModule: WebAssembly.Module | null | undefined

/**
 * One WebAssembly instance per cache, its memory laid out as [vectors f32][inverse norms f64]
 * [query f64]. Undefined where WebAssembly SIMD is missing or the memory cannot be had, and then
 * the JavaScript scan is used.
 */
function simdScan(maxElements: number, dimensions: number): SimdScan | undefined {
  if (scanModule === undefined) {
    const bytes = Uint8Array.from(atob(SCAN_WASM_BASE64), c => c.charCodeAt(0))
    scanModule = typeof WebAssembly === 'object' && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null
  }
  if (!scanModule) return undefined
  const normsAt = maxElements * dimensions * 4
  const queryAt = normsAt + maxElements * 8
  const bytes = queryAt + dimensions * 8
  try {
    const instance = new WebAssembly.Instance(scanModule)
    const { memory, scan } = instance.exports as {
      memory: WebAssembly.Memory
      scan: (rows: number, norms: number, query: number, dims: number, from: number, to: number) => number
    }
    const missing = Math.ceil(bytes / 65536) - memory.buffer.byteLength / 65536
    if (missing > 0) memory.grow(missing)
    return {
      vectors: new Float32Array(memory.buffer, 0, maxElements * dimensions),
      inverseNorms: new Float64Array(memory.buffer, normsAt, maxElements),
      query: new Float64Array(memory.buffer, queryAt, dimensions),
      scan: (from, to) => scan(0, normsAt, queryAt, dimensions, from, to),
    }
  }
  catch {
    return undefined
  }
}
