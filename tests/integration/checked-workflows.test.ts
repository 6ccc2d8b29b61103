/**
 * The API's answer about a workflow whose steps a run would refuse: its problems on create, update
 * and validate (each naming its node and field), and a run of it refused with them before it starts.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from '../support/app-server'

let server: AppServer
beforeAll(async () => { server = await startAppServer() })
afterAll(async () => { await server?.stop() })

const abTest = JSON.parse(readFileSync(join(import.meta.dirname, '../../examples/ab-test.json'), 'utf8')) as { nodes: Array<{ id: string, config: Record<string, unknown> }> }
/** The A/B test with one candidate listed, or switched to trace scoring with no trace. */
function variant(judge: Record<string, unknown>) {
  const copy = structuredClone(abTest)
  const node = copy.nodes.find(n => n.id === 'judge')!
  node.config = { ...node.config, ...judge }
  return copy
}
const oneCandidate = variant({ compare_inputs: ['{{steps.a.text}}'] })
const noTrace = { ...variant({ evaluation_type: 'trace', compare_inputs: undefined, criteria: undefined, model: undefined, context: undefined }), name: 'no trace' }

describe('a workflow whose steps a run would refuse', () => {
  it('has its problems in the answers of validate, create and update, each with its node and field', async () => {
    const validated = await server.api('/api/workflows/validate', { body: oneCandidate })
    expect(validated.body).toEqual({ ok: false, problems: [expect.objectContaining({ node: 'judge', path: 'nodes.judge.config.compare_inputs', message: expect.stringContaining('needs at least 2 candidates, not 1') })] })
    const created = await server.api('/api/workflows', { body: oneCandidate })
    expect(created.status).toBe(201)
    expect(created.body.problems).toEqual(validated.body.problems)
    const updated = await server.api(`/api/workflows/${created.body.id}`, { method: 'PUT', body: noTrace })
    expect(updated.body.problems.filter((p: { node: string }) => p.node === 'judge')).toEqual([
      expect.objectContaining({ node: 'judge', path: 'nodes.judge.config.trace', message: expect.stringContaining('trace: is missing') }),
    ])
    // The output step still reads the comparison's fields, which trace scoring does not output.
    expect(updated.body.problems.filter((p: { node: string }) => p.node === 'best').map((p: { path: string }) => p.path)).toEqual([
      'nodes.best.config.value.winner', 'nodes.best.config.value.text', 'nodes.best.config.value.ranking',
    ])
  })

  it('refuses a run of it with those problems, and starts none', async () => {
    const created = await server.api('/api/workflows', { body: oneCandidate })
    const run = await server.api(`/api/workflows/${created.body.id}/runs`, { body: { input: {} } })
    expect(run.status).toBe(400)
    expect(run.body.data).toMatchObject({ code: 'INVALID_WORKFLOW', details: created.body.problems })
    expect((await server.api(`/api/workflows/${created.body.id}/runs`)).body).toEqual([])
  })

  it('runs the A/B test wired without compare_inputs, naming the winner by its step', async () => {
    const created = await server.api('/api/workflows', { body: variant({ compare_inputs: undefined }) })
    expect(created.body.problems).toEqual([])
    const started = await server.api(`/api/workflows/${created.body.id}/runs`, { body: { input: {} } })
    expect(started.status).toBe(202)
    let run
    for (let i = 0; i < 100 && !['succeeded', 'failed'].includes((run = (await server.api(`/api/runs/${started.body.id}`)).body).status); i++) await new Promise(r => setTimeout(r, 50))
    expect(run.status).toBe('succeeded')
    expect(run.output.ranking.map((r: { id: string }) => r.id).sort()).toEqual(['a', 'b'])
  })

  it('warns of a key the server lacks for a metric suite\'s judge, naming it, on the step', async () => {
    const suite = variant({ evaluation_type: 'metrics', compare_inputs: undefined, criteria: undefined, model: undefined, content: '{{steps.a.text}}' })
    const created = await server.api('/api/workflows', { body: suite })
    // Only the output step's references to the comparison's fields, which a metric suite does not output.
    expect(created.body.problems.map((p: { node: string }) => p.node)).toEqual(['best', 'best', 'best'])
    expect(created.body.warnings).toEqual([{ node: 'judge', message: expect.stringMatching(/^ANTHROPIC_API_KEY is not set: node "judge" uses anthropic:/) }])
    expect((await server.api(`/api/workflows/${created.body.id}`)).body.warnings).toEqual(created.body.warnings)
    expect((await server.api('/api/workflows', { body: abTest })).body.warnings).toEqual([])
  })
})
