import { describe, expect, it } from 'vitest'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadTraceCache, saveTraceCache, VectorCache } from '../../../engine/trace'

const vec = (...values: number[]) => Float32Array.from(values)
const unit = (dimensions: number, at: number) => {
  const v = new Float32Array(dimensions)
  v[at] = 1
  return v
}

function randomVector(dimensions: number, seed: number): Float32Array {
  // A small LCG: the same "random" vectors on every run.
  let state = seed
  return Float32Array.from({ length: dimensions }, () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32 - 0.5
  })
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0
  let na = 0
  let nb = 0
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!
    na += a[i]! * a[i]!
    nb += b[i]! * b[i]!
  }
  return dot / Math.sqrt(na * nb)
}

describe('VectorCache', () => {
  it('is empty at first: no similarity to report', () => {
    const cache = new VectorCache({ dimensions: 3 })
    expect(cache.size).toBe(0)
    expect(cache.maxSimilarity(vec(1, 0, 0))).toBeUndefined()
  })

  it('gives the highest cosine similarity, whatever the vectors\' lengths', () => {
    const cache = new VectorCache({ dimensions: 3 })
    cache.add(vec(2, 0, 0))
    cache.add(vec(0, 5, 0))
    expect(cache.maxSimilarity(vec(3, 0, 0))).toBeCloseTo(1, 6)
    expect(cache.maxSimilarity(vec(1, 1, 0))).toBeCloseTo(Math.SQRT1_2, 6)
    expect(cache.maxSimilarity(vec(0, 0, 1))).toBe(0)
    expect(cache.maxSimilarity(vec(-1, -1, 0))).toBeCloseTo(-Math.SQRT1_2, 6)
    expect(cache.maxSimilarity(vec(0, 0, 0))).toBe(0)
  })

  it('keeps a copy: changing the vector afterwards does not change the cache', () => {
    const cache = new VectorCache({ dimensions: 2 })
    const v = vec(1, 0)
    cache.add(v)
    v[0] = 0
    v[1] = 1
    expect(cache.maxSimilarity(vec(0, 1))).toBe(0)
  })

  it('evicts the oldest entry when full', () => {
    const cache = new VectorCache({ maxElements: 2, dimensions: 3 })
    cache.add(unit(3, 0))
    cache.add(unit(3, 1))
    cache.add(unit(3, 2))
    expect(cache.size).toBe(2)
    expect(cache.maxSimilarity(unit(3, 0))).toBe(0)
    expect(cache.maxSimilarity(unit(3, 1))).toBeCloseTo(1, 6)
    expect(cache.maxSimilarity(unit(3, 2))).toBeCloseTo(1, 6)
  })

  it('matches a naive scan over the live entries after the ring wraps', () => {
    const cache = new VectorCache({ maxElements: 10, dimensions: 7 })
    const added = Array.from({ length: 23 }, (_, i) => randomVector(7, i + 1))
    for (const v of added) cache.add(v)
    const live = added.slice(-10)
    for (let q = 100; q < 110; q++) {
      const query = randomVector(7, q)
      expect(cache.maxSimilarity(query)).toBeCloseTo(Math.max(...live.map(v => cosine(v, query))), 6)
    }
  })

  it('drops entries older than ttlMs', () => {
    let now = 0
    const cache = new VectorCache({ dimensions: 2, ttlMs: 1000, now: () => now })
    cache.add(vec(1, 0))
    now = 600
    cache.add(vec(0, 1))
    now = 1000 // the first entry is exactly ttlMs old: not older, so still live
    expect(cache.size).toBe(2)
    now = 1001
    expect(cache.size).toBe(1)
    expect(cache.maxSimilarity(vec(1, 0))).toBe(0)
    now = 1601
    expect(cache.size).toBe(0)
    expect(cache.maxSimilarity(vec(1, 0))).toBeUndefined()
  })

  it('compares with a window of its entries: the newest maxElements, those younger than ttlMs, across the ring\'s wrap', () => {
    let now = 0
    const cache = new VectorCache({ maxElements: 4, dimensions: 4, ttlMs: 10_000, now: () => now })
    // Six entries in a ring of four: entries 2..5 are live, added at 2000..5000, slots wrapping past the end.
    for (let i = 0; i < 6; i++) {
      now = i * 1000
      cache.add(unit(4, i % 4))
    }
    now = 5000
    expect(cache.maxSimilarity(unit(4, 2))).toBe(1) // entry 2 (added at 2000) is still held
    expect(cache.maxSimilarity(unit(4, 2), { maxElements: 3 })).toBe(0) // the newest three are 3, 4 (axis 0) and 5 (axis 1)
    expect(cache.maxSimilarity(unit(4, 3), { maxElements: 3 })).toBe(1)
    expect(cache.maxSimilarity(unit(4, 3), { ttlMs: 1999 })).toBe(0) // entry 3 was added 2000 ms ago
    expect(cache.maxSimilarity(unit(4, 3), { ttlMs: 2000 })).toBe(1)
    expect(cache.maxSimilarity(unit(4, 0), { ttlMs: 500 })).toBe(0) // only entry 5 (axis 1) is that young
    expect(cache.maxSimilarity(unit(4, 1), { maxElements: 1, ttlMs: 100_000 })).toBe(1)
    now = 5001
    expect(cache.maxSimilarity(unit(4, 0), { ttlMs: 0.5 })).toBeUndefined()
    expect(cache.size).toBe(4) // a window never removes anything
  })

  it('rejects a vector of the wrong dimension, naming both', () => {
    const cache = new VectorCache()
    expect(() => cache.add(new Float32Array(3))).toThrow('VectorCache.add: expected a vector of 384 dimensions, got 3')
    expect(() => cache.maxSimilarity(new Float32Array(512))).toThrow('VectorCache.maxSimilarity: expected a vector of 384 dimensions, got 512')
  })

  it('rejects options that cannot work', () => {
    expect(() => new VectorCache({ maxElements: 0 })).toThrow('maxElements must be a whole number of at least 1')
    expect(() => new VectorCache({ dimensions: 1.5 })).toThrow('dimensions must be a whole number of at least 1')
    expect(() => new VectorCache({ ttlMs: 0 })).toThrow('ttlMs must be more than 0')
  })

  it('clear() empties it', () => {
    const cache = new VectorCache({ dimensions: 2 })
    cache.add(vec(1, 0))
    cache.clear()
    expect(cache.size).toBe(0)
    expect(cache.maxSimilarity(vec(1, 0))).toBeUndefined()
    cache.add(vec(0, 1))
    expect(cache.maxSimilarity(vec(0, 1))).toBeCloseTo(1, 6)
  })

  it('finds the closest of 1,000 × 384 vectors, as a pairwise scan does', () => {
    const cache = new VectorCache()
    const vectors = Array.from({ length: 1000 }, (_, i) => randomVector(384, i + 1))
    for (const v of vectors) cache.add(v)
    for (const seed of [5000, 5001, 5002]) {
      const query = randomVector(384, seed)
      expect(cache.maxSimilarity(query)).toBeCloseTo(Math.max(...vectors.map(v => cosine(query, v))), 5)
    }
    // Its speed (the target is under 1 ms) is measured by `npm run bench`.
  })

  it('scans the same with WebAssembly SIMD as in plain JavaScript, across the ring\'s wrap', () => {
    const simd = new VectorCache({ maxElements: 300 })
    const plain = new VectorCache({ maxElements: 300, simd: false })
    expect(simd.accelerated).toBe(true)
    expect(plain.accelerated).toBe(false)
    expect(new VectorCache({ dimensions: 7 }).accelerated).toBe(false)
    for (let i = 0; i < 450; i++) {
      const v = randomVector(384, i + 1)
      simd.add(v)
      plain.add(v)
    }
    for (let seed = 9000; seed < 9020; seed++) {
      const query = randomVector(384, seed)
      expect(simd.maxSimilarity(query)).toBeCloseTo(plain.maxSimilarity(query)!, 12)
    }
    expect(simd.maxSimilarity(new Float32Array(384))).toBe(0)
  })
})

describe('persisting the cache', () => {
  it('saves live entries with their ages and restores them into a new cache', () => {
    let now = 1_000_000
    const cache = new VectorCache({ dimensions: 3, ttlMs: 1000, now: () => now })
    cache.add(Float32Array.from([1, 0, 0]))
    now += 600
    cache.add(Float32Array.from([0, 1, 0]))
    const file = join(mkdtempSync(join(tmpdir(), 'judgeflow-cache-')), 'cache.json')
    saveTraceCache(cache, file)
    const restored = new VectorCache({ dimensions: 3, ttlMs: 1000, now: () => now })
    expect(loadTraceCache(restored, file)).toBe(2)
    expect(restored.maxSimilarity(Float32Array.from([1, 0, 0]))).toBeCloseTo(1)
    now += 500
    // The first entry is now 1,100 ms old: expired, as it would have been in the original cache.
    expect(restored.size).toBe(1)
    expect(restored.maxSimilarity(Float32Array.from([1, 0, 0]))).toBeCloseTo(0)
  })
})
