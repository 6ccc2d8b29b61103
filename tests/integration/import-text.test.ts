// Dataset and promptfoo text as an attacker or a careless user sends it, through the real HTTP
// API: each must get a 400 that names the limit, and the server must go on answering.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from '../support/app-server'

let server: AppServer
beforeAll(async () => { server = await startAppServer() })
afterAll(async () => { await server?.stop() })

const deep = `${'['.repeat(3000)}${']'.repeat(3000)}`
/** Nine anchors, each a list of nine aliases of the one before: 9^9 strings once expanded. */
const levels = 'abcdefghi'.split('')
const aliasBomb = levels.map((name, i) => `${name}: &${name} [${Array(9).fill(i ? `*${levels[i - 1]}` : '"lol"').join(', ')}]`).join('\n')
const depthLimit = 'nests objects and arrays more than 64 levels deep'

describe('text nested past the depth limit', () => {
  it('a dataset (JSON or YAML) and a promptfoo config are refused with 400 naming the limit, twice in a row, and the server answers after', async () => {
    const requests = [
      ['/api/datasets', { name: 'deep-json', format: 'json', text: deep }, `the JSON file ${depthLimit} (at [0][0]`],
      ['/api/datasets', { name: 'deep-yaml', format: 'yaml', text: deep }, `the YAML file ${depthLimit} (at line 1, column 65)`],
      ['/api/datasets', { name: 'deep-jsonl', format: 'jsonl', text: `{"input":${deep}}` }, `line 1, (row): ${depthLimit}`],
      ['/api/datasets/import-promptfoo', { config: deep }, `the promptfoo config ${depthLimit} (at [0][0]`],
      ['/api/datasets/import-promptfoo', { config: `tests: ${deep}` }, `the promptfoo config ${depthLimit} (at line 1, column 71)`],
    ] as const
    for (const [path, body, message] of requests) {
      for (let attempt = 0; attempt < 2; attempt++) {
        const answer = await server.api(path, { body })
        expect(answer.status, `${path} ${JSON.stringify(body).slice(0, 40)}`).toBe(400)
        expect(answer.body.message).toContain(message)
        expect(answer.body.message).toContain('JUDGEFLOW_MAX_JSON_DEPTH')
      }
    }
    expect((await server.api('/api/health')).status).toBe(200)
    const ordinary = await server.api('/api/datasets', { body: { name: 'after', format: 'yaml', text: '- id: a\n  input: { q: x }\n' } })
    expect(ordinary.status).toBe(201)
    expect(server.output()).not.toMatch(/RangeError|call stack|FATAL/)
  })
})

describe('YAML alias bombs', () => {
  it('a dataset and a promptfoo config that expand aliases past the limit are refused with 400 naming the alias limit', async () => {
    for (const [path, body] of [['/api/datasets', { name: 'lol', format: 'yaml', text: aliasBomb }], ['/api/datasets/import-promptfoo', { config: aliasBomb }]] as const) {
      const answer = await server.api(path, { body })
      expect(answer.status).toBe(400)
      expect(answer.body.message).toMatch(/repeats values through aliases \(\*name\) beyond the limit of 100 alias expansions/)
    }
    expect((await server.api('/api/health')).status).toBe(200)
    expect(server.output()).not.toMatch(/ReferenceError/)
  })
})

describe('cases without ids', () => {
  it('a one-line JSON dataset without ids is imported, its cases numbered by position', async () => {
    const cases = Array.from({ length: 50 }, (_, i) => ({ input: { q: `question ${i}` } }))
    const created = await server.api('/api/datasets', { body: { name: 'one-line', format: 'json', text: JSON.stringify(cases) } })
    expect(created.status).toBe(201)
    expect(created.body.case_count).toBe(50)
    const stored = await server.api(`/api/datasets/${created.body.id}`)
    expect(stored.body.cases.map((c: { id: string }) => c.id)).toEqual(cases.map((_, i) => `case-${i + 1}`))
  })
})

/** Imports just under the 1 MiB body limit: a YAML list of 70,000 cases, 60,000 on one line of JSON, 70,000 on one line of YAML. */
const largeImports = [
  { format: 'yaml', text: Array.from({ length: 70_000 }, () => '- input: {}').join('\n'), cases: 70_000 },
  { format: 'json', text: JSON.stringify(Array.from({ length: 60_000 }, () => ({ input: {} }))), cases: 60_000 },
  { format: 'yaml', text: `[${Array.from({ length: 70_000 }, () => '{input: {}}').join(', ')}]`, cases: 70_000 },
] as const

describe('large imports', () => {
  it('are read off the server\'s thread: /api/health answers while each is read, every answer within a second (the promise is 200 ms)', async () => {
    for (const [i, { format, text, cases }] of largeImports.entries()) {
      const body = JSON.stringify({ name: `large-${i}`, format, text })
      expect(body.length).toBeLessThan(1024 * 1024)
      let inFlight = true
      const imported = server.api('/api/datasets', { body }).finally(() => { inFlight = false })
      const waits: number[] = []
      do {
        const sent = performance.now()
        expect((await server.api('/api/health')).status).toBe(200)
        waits.push(performance.now() - sent)
        await new Promise(r => setTimeout(r, 50))
      } while (inFlight)
      expect(await imported).toMatchObject({ status: 201, body: { case_count: cases } })
      for (const wait of waits) expect(wait).toBeLessThan(1_000)
    }
  })

  it('a large promptfoo config and a large list of cases are read off the thread too, with the same refusals', async () => {
    const tests = Array.from({ length: 10_000 }, (_, i) => `  - vars: { q: "question ${i}" }\n    assert: [{ type: contains, value: "${i}" }]`).join('\n')
    const config = `description: many\ntests:\n${tests}\n`
    let inFlight = true
    const imported = server.api('/api/datasets/import-promptfoo', { body: { config } }).finally(() => { inFlight = false })
    do {
      const sent = performance.now()
      expect((await server.api('/api/health')).status).toBe(200)
      expect(performance.now() - sent).toBeLessThan(1_000)
      await new Promise(r => setTimeout(r, 50))
    } while (inFlight)
    expect(await imported).toMatchObject({ status: 201, body: { dataset: { name: 'many', case_count: 10_000 } } })
    const values = await server.api('/api/datasets', { body: { name: 'values', cases: [{ input: { q: 'a' } }, { id: 'x' }] } })
    expect(values).toMatchObject({ status: 400, body: { message: 'the dataset has a problem, so nothing was imported: case 2, input: is required.' } })
  })
})
