// A run's storage and the answers about it stay within their limits, however often a workflow
// repeats a large input: the storage limit counts events and the run's output too, and every
// answer about a run is bounded, linking to the whole values it does not carry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from '../support/app-server'
import { runEndedOn } from '../support/runs'
import { serverStores, stopServerStores, type ServerStore } from '../support/server-stores'

const RUN_LIMIT = 32_000_000

/** Twelve output steps, each repeating the input four times: 3.6 MB a step for a 900 KB input. */
const amplifier = {
  name: 'twelve outputs',
  nodes: [
    { id: 'in', type: 'input' },
    ...Array.from({ length: 12 }, (_, i) => ({ id: `out${i + 1}`, type: 'output', config: { value: Array.from({ length: 4 }, () => '{{input.x}}') } })),
  ],
  edges: Array.from({ length: 12 }, (_, i) => ({ from: 'in', to: `out${i + 1}` })),
}

/** Characters a run has stored in every place: its row's input and output, its steps' rows and its events. */
async function storedCharacters(store: ServerStore, location: string, runId: string): Promise<{ events: number, steps: number, run: number }> {
  const text = store.name === 'PostgreSQL' ? '::text' : ''
  const [events] = await store.query(location, `select coalesce(sum(length(data${text})), 0) as n from run_events where run_id = $1`, [runId])
  const [steps] = await store.query(location, `select coalesce(sum(coalesce(length(input${text}), 0) + coalesce(length(output${text}), 0)), 0) as n from step_runs where run_id = $1`, [runId])
  const [run] = await store.query(location, `select coalesce(length(output${text}), 0) as n from runs where id = $1`, [runId])
  return { events: Number(events!.n), steps: Number(steps!.n), run: Number(run!.n) }
}

describe.each(serverStores)('a run\'s storage and answers ($name)', (store) => {
  let server: AppServer
  let location: string
  beforeAll(async () => {
    location = await store.create()
    server = await startAppServer(store.at(location, { JUDGEFLOW_MAX_CONCURRENT_RUNS: '2' }))
  }, 120_000)
  afterAll(async () => {
    await server?.stop()
  })

  it('counts events and the run\'s output inside the run\'s storage limit, and stores the refusal with a preview', async () => {
    const created = await server.api('/api/workflows', { body: amplifier })
    const started = await server.api(`/api/workflows/${created.body.id}/runs`, { body: { input: { x: 'x'.repeat(900_000) } } })
    expect(started.status).toBe(202)
    const run = await runEndedOn(server, started.body.id)
    expect(run.status).toBe('failed')
    expect(run.error.code).toBe('TOO_LARGE')
    expect(run.error.message).toContain('JUDGEFLOW_MAX_RUN_STORAGE')

    const stored = await storedCharacters(store, location, started.body.id)
    // The 900 KB input itself is the input step's row and one bounded copy per event.
    expect(stored.events + stored.steps + stored.run).toBeLessThanOrEqual(RUN_LIMIT)
    // Events carry bounded values: the whole values are in the steps' rows.
    expect(stored.events).toBeLessThan(1_000_000)

    // The step refused keeps why, with the size and the start of what it refused.
    const refused = Object.values<any>(run.steps).find(step => step.status === 'failed' && step.error?.code === 'TOO_LARGE')
    expect(refused).toBeDefined()
    expect(refused.output ?? null).toBeNull()

    // Thirty readers at once each get a bounded answer, and the server keeps answering.
    const answers = await Promise.all(Array.from({ length: 30 }, async () => {
      const response = await fetch(`${server.url}/api/runs/${started.body.id}`)
      return { status: response.status, length: (await response.text()).length }
    }))
    for (const answer of answers) expect(answer).toMatchObject({ status: 200, length: expect.any(Number) })
    expect(Math.max(...answers.map(answer => answer.length))).toBeLessThan(2_500_000)
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200)
  }, 120_000)

  it('bounds the run\'s answer, marking each value it leaves out with its size, its start and a link to it whole', async () => {
    const created = await server.api('/api/workflows', {
      body: { ...amplifier, name: 'two outputs', nodes: amplifier.nodes.slice(0, 3), edges: amplifier.edges.slice(0, 2) },
    })
    const started = await server.api(`/api/workflows/${created.body.id}/runs`, { body: { input: { x: 'y'.repeat(900_000) } } })
    const ended = await runEndedOn(server, started.body.id)
    expect(ended.status).toBe('succeeded')

    const answer = await fetch(`${server.url}/api/runs/${started.body.id}`)
    const text = await answer.text()
    expect(text.length).toBeLessThan(2_500_000)
    const run = JSON.parse(text)
    const output = run.steps.out1.output
    expect(output).toMatchObject({ truncated: true, href: `/api/runs/${started.body.id}/steps/out1/1/output` })
    expect(output.preview).toBe('{"verdict":null,"value":["' + 'y'.repeat(474))

    const whole = await fetch(`${server.url}${output.href}`)
    expect(whole.status).toBe(200)
    expect(whole.headers.get('content-type')).toContain('application/json')
    const wholeText = await whole.text()
    expect(output.size).toBe(wholeText.length)
    const value = JSON.parse(wholeText) as { value: string[] }
    expect(value.value).toHaveLength(4)
    expect(value.value[3]).toHaveLength(900_000)

    // The run's own input and output, too large for the answer, are linked the same way.
    expect(run.output).toMatchObject({ truncated: true, href: `/api/runs/${started.body.id}/output` })
    const runOutput = await (await fetch(`${server.url}${run.output.href}`)).json() as Record<string, string[]>
    expect(Object.keys(runOutput)).toEqual(['out1', 'out2'])
    expect(run.input).toMatchObject({ truncated: true, href: `/api/runs/${started.body.id}/input` })

    // Asking for a step that is not there, or a field that is not one, says so.
    expect((await fetch(`${server.url}/api/runs/${started.body.id}/steps/out1/9/output`)).status).toBe(404)
    const badField = await server.api(`/api/runs/${started.body.id}/steps/out1/1/secret`)
    expect(badField.status).toBe(400)
    expect(badField.body.message).toContain('field')
  }, 120_000)

  it('sends bounded events, each marker linking to the whole value', async () => {
    const created = await server.api('/api/workflows', {
      body: { ...amplifier, name: 'one output', nodes: amplifier.nodes.slice(0, 2), edges: amplifier.edges.slice(0, 1) },
    })
    const started = await server.api(`/api/workflows/${created.body.id}/runs`, { body: { input: { x: 'z'.repeat(100_000) } } })
    await runEndedOn(server, started.body.id)
    const stream = await (await fetch(`${server.url}/api/runs/${started.body.id}/events`)).text()
    expect(stream.length).toBeLessThan(200_000)
    const events = stream.split('\n').filter(line => line.startsWith('data: ')).map(line => JSON.parse(line.slice(6)))
    const done = events.find(event => event.type === 'step.succeeded' && event.step.node_id === 'out1')
    expect(done.step.output.size).toBeGreaterThan(400_000)
    expect(done.step.output).toMatchObject({ truncated: true, href: `/api/runs/${started.body.id}/steps/out1/1/output` })
    const finished = events.find(event => event.type === 'run.finished')
    expect(finished.result.status).toBe('succeeded')
    expect(finished.result.output).toMatchObject({ truncated: true, href: `/api/runs/${started.body.id}/output` })
  }, 60_000)
})

afterAll(async () => {
  await stopServerStores()
})
