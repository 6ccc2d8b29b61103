import { afterAll, describe, expect, it } from 'vitest'
import { JudgeflowError } from '../../../engine/errors'
import type { ImportJob } from '../../../engine/datasets/import-worker/protocol'
import { readImport } from '../../../engine/datasets/import-worker/read'
import { ImportReader } from '../../../engine/datasets/import-worker/reader'

const entry = new URL('../../../engine/datasets/import-worker/entry.ts', import.meta.url)
const reader = new ImportReader({ entry })
afterAll(() => reader.close())

const bigYaml = Array.from({ length: 30_000 }, (_, i) => `- input: { q: "question ${i}" }`).join('\n')

describe('imports read on a worker thread', () => {
  it('give what the same read gives on the calling thread: dataset files, case lists, promptfoo configs', { timeout: 60_000 }, async () => {
    const jobs: ImportJob[] = [
      { kind: 'file', text: '- input: { q: a }\n- id: b\n  input: { q: b }\n', format: 'yaml', options: { where: 'the YAML file' } },
      { kind: 'cases', cases: [{ input: { q: 'a' } }] },
      { kind: 'promptfoo', text: 'description: p\ntests:\n  - vars: { q: a }\n    assert: [{ type: contains, value: a }]\n', options: { maxDepth: 64 } },
    ]
    for (const job of jobs) expect(await reader.read(job)).toEqual(readImport(job))
  })

  it('refuse what the calling thread refuses, with the same code, message and details', { timeout: 60_000 }, async () => {
    const job = { kind: 'file', text: `${'['.repeat(3000)}${']'.repeat(3000)}`, format: 'yaml', options: { where: 'the YAML file' } } as const
    const here = (() => {
      try {
        readImport(job)
      }
      catch (error) {
        return error as JudgeflowError
      }
    })()!
    const there = await reader.read(job).catch((error: unknown) => error)
    expect(there).toBeInstanceOf(JudgeflowError)
    expect(there).toMatchObject({ code: here.code, category: 'user', message: here.message, details: here.details })
  })

  it('leave the calling thread free while a large file is read', { timeout: 60_000 }, async () => {
    await reader.read({ kind: 'cases', cases: [] })
    const order: string[] = []
    const read = reader.read({ kind: 'file', text: bigYaml, format: 'yaml', options: {} }).then((parsed) => {
      order.push('read')
      return parsed
    })
    await new Promise(resolve => setImmediate(resolve))
    order.push('calling thread ran')
    expect((await read).cases).toHaveLength(30_000)
    expect(order).toEqual(['calling thread ran', 'read'])
  })

  it('stop a read past the time limit with a refusal naming it; the next read goes to a new worker', { timeout: 60_000 }, async () => {
    const hasty = new ImportReader({ entry, timeLimitMs: 1 })
    try {
      const error = await hasty.read({ kind: 'file', text: bigYaml, format: 'yaml', options: {} }).catch((e: unknown) => e)
      expect(error).toMatchObject({ code: 'INVALID_INPUT', message: 'The import was not read within 0.001 s and was stopped: split it into smaller files.' })
    }
    finally {
      await hasty.close()
    }
    expect(await reader.read({ kind: 'cases', cases: [{ id: 'a', input: {} }] })).toEqual([{ id: 'a', input: {} }])
  })
})
