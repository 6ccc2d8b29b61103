import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../../support/cli'
import { financeTrace } from '../../support/workflow-corpus'

// The finance trace every trace test shares.
const trace = financeTrace

function files() {
  const dir = mkdtempSync(join(tmpdir(), 'judgeflow-eval-trace-'))
  const config = join(dir, 'trace.json')
  const input = join(dir, 'input.json')
  writeFileSync(config, JSON.stringify({ evaluation_type: 'trace', trace: { embedder: 'hashed' } }))
  writeFileSync(input, JSON.stringify({ trace }))
  return { dir, config, input, cache: join(dir, 'novelty.json') }
}

const novelty = async (f: ReturnType<typeof files>, env: Record<string, string>) => {
  const { code, out, err } = await cli(['eval', '--config', f.config, '--input', f.input], env)
  expect(err).toBe('')
  expect(code).toBeLessThan(2)
  return (JSON.parse(out) as { trace: { N: number } }).trace.N
}

describe('judgeflow eval keeps the trace novelty cache in JUDGEFLOW_TRACE_CACHE_FILE', () => {
  it('writes the vectors it saw, and the next eval compares with them: the same trace is no longer novel', async () => {
    const f = files()
    const env = { JUDGEFLOW_TRACE_CACHE_FILE: f.cache }
    expect(await novelty(f, env)).toBe(0.5)
    const saved = JSON.parse(readFileSync(f.cache, 'utf8')) as { dimensions: number, entries: unknown[] }
    expect(saved).toMatchObject({ dimensions: 384, entries: [expect.anything()] })
    expect(await novelty(f, env)).toBe(0)
    expect((JSON.parse(readFileSync(f.cache, 'utf8')) as { entries: unknown[] }).entries).toHaveLength(2)
    // Only the file is left in the folder: the temporary file was renamed over it.
    expect(readdirSync(f.dir).sort()).toEqual(['input.json', 'novelty.json', 'trace.json'])
  })

  it('without the variable, each eval starts from an empty cache and writes nothing', async () => {
    const f = files()
    expect(await novelty(f, {})).toBe(0.5)
    expect(await novelty(f, {})).toBe(0.5)
    expect(existsSync(f.cache)).toBe(false)
  })

  it('refuses a cache file that is not one, naming it, before evaluating', async () => {
    const f = files()
    writeFileSync(f.cache, '{"dimensions": 384, "entr')
    const { code, out, err } = await cli(['eval', '--config', f.config, '--input', f.input], { JUDGEFLOW_TRACE_CACHE_FILE: f.cache })
    expect({ code, out }).toEqual({ code: 2, out: '' })
    expect(err).toContain(`The trace cache file "${f.cache}" (JUDGEFLOW_TRACE_CACHE_FILE) is not valid JSON`)
    expect(readFileSync(f.cache, 'utf8')).toBe('{"dimensions": 384, "entr')
  })
})
