import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { loadTraceCache, saveTraceCache, VectorCache } from '../../../engine/trace'

/** What the next write of a cache's text does halfway through: nothing, fail (a crash), or let another save run. */
const midWrite: { then?: () => void } = {}

vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>()
  const writeFileSync: typeof fs.writeFileSync = (target, data, options) => {
    const then = midWrite.then
    if (!then || typeof data !== 'string' || !data.startsWith('{"dimensions"')) return fs.writeFileSync(target, data, options)
    midWrite.then = undefined
    const half = Math.floor(data.length / 2)
    fs.writeFileSync(target, data.slice(0, half), options)
    then()
    fs.appendFileSync(target, data.slice(half))
  }
  return { ...fs, default: { ...fs, writeFileSync }, writeFileSync }
})

afterEach(() => {
  midWrite.then = undefined
})

const cacheOf = (...vectors: number[][]) => {
  const cache = new VectorCache({ dimensions: 3 })
  for (const v of vectors) cache.add(Float32Array.from(v))
  return cache
}
const loaded = (file: string) => {
  const cache = new VectorCache({ dimensions: 3 })
  loadTraceCache(cache, file)
  return cache.snapshot().entries.map(e => e.vector)
}
const folder = () => mkdtempSync(join(tmpdir(), 'judgeflow-trace-file-'))

describe('saving the trace cache to JUDGEFLOW_TRACE_CACHE_FILE', () => {
  it('leaves the previous file whole when a save fails mid-write, and no temporary file behind', () => {
    const dir = folder()
    const file = join(dir, 'cache.json')
    saveTraceCache(cacheOf([1, 0, 0]), file)
    midWrite.then = () => {
      throw new Error('ENOSPC: no space left on device')
    }
    expect(() => saveTraceCache(cacheOf([1, 0, 0], [0, 1, 0]), file)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringContaining(`The trace cache file "${file}" (JUDGEFLOW_TRACE_CACHE_FILE) could not be written: ENOSPC`) }))
    expect(loaded(file)).toEqual([[1, 0, 0]])
    expect(readdirSync(dir)).toEqual(['cache.json'])
  })

  it('two saves at once (two commands ending together) each write a temporary file of their own: the file is one of them, whole', () => {
    const dir = folder()
    const file = join(dir, 'cache.json')
    midWrite.then = () => saveTraceCache(cacheOf([0, 0, 1]), file)
    saveTraceCache(cacheOf([1, 0, 0], [0, 1, 0]), file)
    expect(() => JSON.parse(readFileSync(file, 'utf8'))).not.toThrow()
    expect(loaded(file)).toEqual([[1, 0, 0], [0, 1, 0]])
    expect(readdirSync(dir)).toEqual(['cache.json'])
  })

  it('refuses to load a file that is not a saved cache, naming it', () => {
    const wrong = join(folder(), 'wrong.json')
    writeFileSync(wrong, JSON.stringify({ dimensions: 3, entries: [{ added_at: 1, vector: [1, 0] }] }))
    expect(() => loadTraceCache(new VectorCache({ dimensions: 3 }), wrong)).toThrow(`The trace cache file "${wrong}" (JUDGEFLOW_TRACE_CACHE_FILE) is not a saved trace cache`)
  })
})
