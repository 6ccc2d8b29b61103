import { afterAll, describe, expect, it } from 'vitest'
import { ImportReader } from '../../../engine/datasets/import-worker/reader'
import { heldConfig, heldImports } from '../../support/held-imports'

const held = heldImports()
afterAll(() => held.close())

/** A promptfoo import the held worker keeps until the test releases it; its dataset is named `key`. */
const heldJob = (key: string) => {
  const { name, config } = heldConfig(key)
  return { kind: 'promptfoo', text: config, options: { name, maxDepth: 64 } } as const
}
const smallJob = { kind: 'cases' as const, cases: [{ id: 'a', input: { q: 'x' } }] }
/** The refusal of an import, which comes at once; 'still waiting' when the import was taken instead. */
const refusal = (promise: Promise<unknown>) => Promise.race([
  promise.then(() => 'read', (error: unknown) => error),
  new Promise(resolve => setTimeout(() => resolve('still waiting'), 5_000)),
])

describe('the import queue: bounded, and shared fairly between clients', () => {
  it('refuses an import that would give its client more than its share, naming the limit; other clients are still taken', { timeout: 60_000 }, async () => {
    const reader = new ImportReader({ entry: held.entry, maxQueued: 8, maxPerClient: 2 })
    try {
      const first = reader.read(heldJob('share-1'), 'A')
      const second = reader.read(heldJob('share-2'), 'A')
      expect(await refusal(reader.read(heldJob('share-3'), 'A'))).toMatchObject({
        code: 'TOO_MANY_IMPORTS',
        message: 'You already have 2 imports waiting or being read, the most one client may have (JUDGEFLOW_MAX_IMPORTS_PER_CLIENT, 2): try again in 30 s, once one is done.',
        details: { variable: 'JUDGEFLOW_MAX_IMPORTS_PER_CLIENT', limit: 2, retry_after_s: 30 },
      })
      const other = reader.read(smallJob, 'B')
      await held.whenStarted('share-1')
      held.release('share-1', 'share-2')
      expect(await other).toEqual([{ id: 'a', input: { q: 'x' } }])
      await Promise.all([first, second])
      // Once one is done, the client may import again.
      expect(await reader.read(smallJob, 'A')).toHaveLength(1)
    }
    finally {
      await reader.close()
    }
  })

  it('refuses an import that would wait behind JUDGEFLOW_MAX_QUEUED_IMPORTS others, whoever asks', { timeout: 60_000 }, async () => {
    const reader = new ImportReader({ entry: held.entry, maxQueued: 2, maxPerClient: 2, timeLimitMs: 50_000 })
    try {
      const reading = reader.read(heldJob('full-1'), 'A')
      const waiting = [reader.read(heldJob('full-2'), 'B'), reader.read(heldJob('full-3'), 'C')]
      expect(await refusal(reader.read(smallJob, 'D'))).toMatchObject({
        code: 'TOO_MANY_IMPORTS',
        message: '2 imports are already waiting for the import worker, the most JUDGEFLOW_MAX_QUEUED_IMPORTS allows (2): try again in 50 s, or raise JUDGEFLOW_MAX_QUEUED_IMPORTS.',
        details: { variable: 'JUDGEFLOW_MAX_QUEUED_IMPORTS', limit: 2, retry_after_s: 50 },
      })
      await held.whenStarted('full-1')
      held.release('full-1', 'full-2', 'full-3')
      await Promise.all([reading, ...waiting])
      expect(await reader.read(smallJob, 'D')).toHaveLength(1)
    }
    finally {
      await reader.close()
    }
  })

  it('gives the worker next to the client served longest ago: another client\'s import does not wait behind one client\'s backlog', { timeout: 60_000 }, async () => {
    const reader = new ImportReader({ entry: held.entry, maxQueued: 8, maxPerClient: 3 })
    try {
      const from = held.started.length
      const backlog = ['turn-a1', 'turn-a2', 'turn-a3'].map(key => reader.read(heldJob(key), 'A'))
      await held.whenStarted('turn-a1')
      const other = reader.read(heldJob('turn-b1'), 'B')
      held.release('turn-a1', 'turn-b1')
      await held.whenStarted('turn-b1', 10_000)
      expect(held.started.slice(from, from + 2)).toEqual(['turn-a1', 'turn-b1'])
      await other
      held.release('turn-a2', 'turn-a3')
      await Promise.all(backlog)
      await held.whenStarted('turn-a3')
      expect(held.started.slice(from)).toEqual(['turn-a1', 'turn-b1', 'turn-a2', 'turn-a3'])
    }
    finally {
      await reader.close()
    }
  })
})
