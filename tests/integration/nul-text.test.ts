import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useAppWithFakeLLM, type AppServer } from '../support/app-server'
import { serverStores, stopServerStores } from '../support/server-stores'

afterAll(stopServerStores)

const REFUSAL = 'text may not hold the NUL character (\\u0000)'
const workflow = (name: string) => ({ name, nodes: [{ id: 'in', type: 'input' }], edges: [] })

// PostgreSQL cannot store a NUL character in text: on either store, it is a 400 wherever it comes in.
describe.each(serverStores)('text with a NUL character, on $name', (store) => {
  const app = useAppWithFakeLLM({ beforeAll, afterAll }, async env => store.at(await store.create(), env))
  let server: AppServer
  beforeAll(() => { server = app.server })

  it('is refused in a request body, naming the field', async () => {
    const named = await server.api('/api/workflows', { body: workflow('a\u0000b') })
    expect(named).toMatchObject({ status: 400, body: { message: `The request body is refused: ${REFUSAL} (at name).` } })
    const cases = await server.api('/api/datasets', { body: { name: 'cases', cases: [{ id: 'q\u0000', input: {} }] } })
    expect(cases).toMatchObject({ status: 400, body: { message: `The request body is refused: ${REFUSAL} (at cases[0].id).` } })
    expect((await server.api('/api/datasets', { body: { name: 'n\u0000', cases: [{ id: 'q1', input: {} }] } })).status).toBe(400)
  })

  it('is refused in a dataset file\'s text, where it is written as an escape', async () => {
    for (const [format, text] of [['jsonl', '{"id":"q\\u0000","input":{}}\n'], ['json', '[{"id":"q1","input":{"a":"\\u0000"}}]'], ['yaml', '- id: "q\\0"\n  input: {}\n']]) {
      const answer = await server.api('/api/datasets', { body: { name: `file ${format}`, format, text } })
      expect(answer.status, format).toBe(400)
      expect(answer.body.message, format).toContain(REFUSAL)
    }
    expect((await server.api('/api/datasets')).body).toEqual([])
  })

  it('is refused in a path or a query (%00), before any route reads it', async () => {
    for (const path of ['/api/workflows/x%00y', '/api/datasets/x%00y', '/api/runs/x%00', '/api/workflows?name=%00', '/api/dataset-runs/a%00/report']) {
      const answer = await server.api(path)
      expect(answer.status, path).toBe(400)
      expect(answer.body.message, path).toBe(`The request's path or query is refused: ${REFUSAL}, written %00 in a URL.`)
    }
    expect((await server.api('/api/workflows', { body: workflow('after the refusals') })).status).toBe(201)
    expect((await server.api('/api/health')).status).toBe(200)
  })
})
