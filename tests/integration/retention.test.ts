import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, waitFor, type AppServer } from '../support/app-server'
import { FakeLLM } from '../support/fake-llm'
import { runEndedOn } from '../support/runs'

const fake = new FakeLLM()
let server: AppServer
beforeAll(async () => {
  await fake.start()
  fake.onRequest(() => ({ text: 'answer' }))
  server = await startAppServer({ env: { ...fake.env(), JUDGEFLOW_RETENTION_RUNS: '1', JUDGEFLOW_RETENTION_INTERVAL_MS: '1000' } })
})
afterAll(async () => {
  await server?.stop()
  await fake.stop()
})

describe('retention in the server', () => {
  it('deletes a workflow\'s runs beyond JUDGEFLOW_RETENTION_RUNS on its schedule; a deleted run\'s link says why it may be gone', async () => {
    const { body: wf } = await server.api('/api/workflows', { body: { name: 'kept', nodes: [{ id: 'ask', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'hi' } }] } })
    const ids: string[] = []
    for (let i = 0; i < 3; i++) {
      const { body: run } = await server.api(`/api/workflows/${wf.id}/runs`, { body: {} })
      expect((await runEndedOn(server, run.id, 10_000)).status).toBe('succeeded')
      ids.push(run.id)
    }
    await waitFor(async () => (await server.api(`/api/runs/${ids[1]}`)).status === 404, 10_000, 'the prune')
    const gone = await server.api(`/api/runs/${ids[0]}`)
    expect(gone.status).toBe(404)
    expect(JSON.stringify(gone.body)).toContain(`No run with id \\"${ids[0]}\\". It may have been deleted: finished runs beyond the newest 1 of their workflow (JUDGEFLOW_RETENTION_RUNS) are deleted`)
    expect((await server.api(`/api/runs/${ids[0]}/events`)).status).toBe(404)
    expect((await server.api(`/api/runs/${ids[2]}`)).body).toMatchObject({ id: ids[2], status: 'succeeded' })
    expect(server.output()).not.toMatch(/retention prune failed/)
  })
})
