import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createJudgeflow, loadConfig, type Judgeflow } from '../../../core'
import { createSqliteStore, openDatabase } from '../../../db'
import { ImportReader } from '../../../engine/datasets/import-worker/reader'
import { apiRoutes } from '../../support/api-routes'
import { heldConfig, heldImports } from '../../support/held-imports'

/**
 * The dataset import routes on h3 without a build, their imports read by the held import worker
 * (found where the server looks for its import worker), so that a test decides how long an import
 * holds the worker.
 */
const served = vi.hoisted(() => ({
  app: undefined as Judgeflow | undefined,
  config: undefined as ReturnType<typeof loadConfig> | undefined,
  workerEntry: undefined as URL | undefined,
}))
vi.mock('../../../server/utils/context', () => ({ useJudgeflow: () => served.app }))
vi.mock('../../../server/utils/config', () => ({ judgeflowConfig: () => served.config }))
vi.mock('../../../server/utils/bundled-file', () => ({ bundledFile: (name: string) => (name === 'import-worker.mjs' ? served.workerEntry : undefined) }))

const held = heldImports()
let call: Awaited<ReturnType<typeof apiRoutes>>
beforeAll(async () => {
  served.config = loadConfig({ JUDGEFLOW_MAX_IMPORTS_PER_CLIENT: '2', JUDGEFLOW_MAX_QUEUED_IMPORTS: '8' })
  served.workerEntry = held.entry
  served.app = createJudgeflow(served.config, { store: createSqliteStore(openDatabase(':memory:')), retention: false })
  call = await apiRoutes([
    ['post', '/api/datasets', 'datasets/index.post.ts'],
    ['post', '/api/datasets/import-promptfoo', 'datasets/import-promptfoo.post.ts'],
  ])
})
afterAll(async () => {
  held.close()
  await served.app?.close(0)
})

const post = (path: string, body: unknown, clientAddress: string) =>
  call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }, { clientAddress })
/** The answer, or 'still waiting' when none came before the deadline: a refusal is immediate, never a wait. */
const within = <T>(answer: Promise<T>, ms: number) => Promise.race([answer, new Promise<'still waiting'>(resolve => setTimeout(() => resolve('still waiting'), ms))])

describe('dataset imports through the one import worker: each client gets its share', () => {
  it('refuses a client over its share at once with 429 and Retry-After, while another client\'s small import is served before its backlog', { timeout: 60_000 }, async () => {
    const reads = vi.spyOn(ImportReader.prototype, 'read')
    const greedy = '203.0.113.7'
    const importHeld = (key: string) => post('/api/datasets/import-promptfoo', heldConfig(key), greedy).then(answer => ({ key, answer }))
    const first = importHeld('greedy-1')
    await held.whenStarted('greedy-1')
    // Of the next two, one is the client's second import, which waits its turn; the other would be its third.
    const next = [importHeld('greedy-2'), importHeld('greedy-3')]
    const refused = await within(Promise.race(next), 5_000)
    if (refused === 'still waiting') expect.fail('a client over its share was not refused at once')
    const { key, answer } = refused
    expect(answer.status).toBe(429)
    expect(answer.headers.get('retry-after')).toBe('30')
    expect(answer.body?.message).toBe('You already have 2 imports waiting or being read, the most one client may have (JUDGEFLOW_MAX_IMPORTS_PER_CLIENT, 2): try again in 30 s, once one is done.')
    expect(answer.body?.data).toEqual({ code: 'TOO_MANY_IMPORTS', details: { variable: 'JUDGEFLOW_MAX_IMPORTS_PER_CLIENT', limit: 2, retry_after_s: 30 } })
    const waiting = next[key === 'greedy-2' ? 1 : 0]!

    const ordinary = post('/api/datasets', { name: 'ordinary', cases: [{ id: 'c1', input: { q: 'hello' } }] }, '198.51.100.2')
    await vi.waitFor(() => expect(reads).toHaveBeenCalledTimes(4))
    held.release('greedy-1')
    expect((await ordinary).status).toBe(201)
    // The other client's import had the worker next, before the greedy client's waiting one.
    // The worker says what it starts on a channel of its own, which may arrive after the result.
    await held.whenStarted('cases')
    const turn = held.started.indexOf('greedy-1')
    expect(held.started.slice(turn, turn + 2)).toEqual(['greedy-1', 'cases'])
    expect((await first).answer.status).toBe(201)
    held.release('greedy-2', 'greedy-3')
    expect((await waiting).answer.status).toBe(201)
    reads.mockRestore()
  })
})
