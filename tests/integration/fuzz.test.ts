import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from '../support/app-server'

let server: AppServer
beforeAll(async () => { server = await startAppServer() })
afterAll(async () => { await server?.stop() })

/** JSON values, including deep and odd ones, and valid bodies with one field replaced by such a value. */
const json = fc.jsonValue({ maxDepth: 4 })
const mutated = (valid: Record<string, unknown>) => fc.tuple(fc.constantFrom(...Object.keys(valid)), json).map(([key, value]) => ({ ...valid, [key]: value }))

describe('hostile bodies to every route', () => {
  it('random and mutated JSON never gets a 5xx', async () => {
    const gate = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../examples/quality-gate.json'), 'utf8'))
    const { body: { id } } = await server.api('/api/workflows', { body: gate })
    const { body: experiment } = await server.api('/api/experiments', { method: 'POST', body: {
      name: 'fuzz', documents: [{ id: 'd', text: 't', problems: [{ id: 'p', category: 'c' }] }], target: { workflow_id: id, node: 'draft' }, variants: [{ id: 'a' }], current_best: 'a',
    } })
    const validWorkflow = { name: 'w', nodes: [{ id: 'in', type: 'input' }], edges: [] }
    const routes: Array<[string, string, Record<string, unknown>]> = [
      ['POST', '/api/workflows', validWorkflow],
      ['POST', '/api/workflows/import', validWorkflow],
      ['POST', '/api/workflows/validate', validWorkflow],
      ['PUT', `/api/workflows/${id}`, validWorkflow],
      ['POST', `/api/workflows/${id}/runs`, { input: { question: 'q' }, options: {} }],
      ['POST', '/api/evaluate', { config: { evaluation_type: 'scoring', model: 'local:heuristic' }, input: { content: 'x' } }],
      ['POST', '/api/experiments', { name: 'x', documents: [], target: {}, variants: [], current_best: 'a' }],
      ['PUT', `/api/experiments/${experiment.id}`, { name: 'x' }],
      ['POST', `/api/experiments/${experiment.id}/adopt`, { variant: 'a' }],
      ['PUT', `/api/experiments/${experiment.id}/rounds/1/judgments`, { judgments: [] }],
      ['POST', '/api/login', { token: 'x' }],
      ['POST', `/api/experiments/${experiment.id}/rounds`, {}],
      ['POST', `/api/experiments/${experiment.id}/rounds/1/cancel`, {}],
      ['POST', '/api/runs/not-a-run/cancel', {}],
    ]
    const failures: string[] = []
    for (const [method, path, valid] of routes) {
      await fc.assert(fc.asyncProperty(Object.keys(valid).length ? fc.oneof(json, mutated(valid)) : json, async (body) => {
        const { status } = await server.api(path, { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } })
        if (status >= 500) failures.push(`${method} ${path} answered ${status} to ${JSON.stringify(body).slice(0, 200)}`)
        return status < 500
      }), { numRuns: 40 })
    }
    // Bodies that are not JSON at all.
    for (const [method, path] of routes) {
      for (const raw of ['{', 'null', '"text"', '[1,2', '\u0000\u0001', '{"a":'.repeat(50)]) {
        const { status } = await server.api(path, { method, body: raw, headers: { 'content-type': 'application/json' } })
        if (status >= 500) failures.push(`${method} ${path} answered ${status} to ${JSON.stringify(raw)}`)
      }
    }
    // Valid bodies with one field nested far deeper than a recursive walk could follow, or with a __proto__ key.
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`
    for (const [method, path, valid] of routes) {
      for (const key of Object.keys(valid)) {
        const fields = Object.entries(valid).map(([k, v]) => `${JSON.stringify(k)}:${k === key ? deep : JSON.stringify(v)}`)
        for (const raw of [`{${fields.join(',')}}`, JSON.stringify(valid).replace(/^\{/, '{"__proto__":{"x":1},')]) {
          const { status } = await server.api(path, { method, body: raw, headers: { 'content-type': 'application/json' } })
          if (status >= 500) failures.push(`${method} ${path} answered ${status} to ${raw.slice(0, 60)}… (${key})`)
        }
      }
    }
    // Ids and query strings that are not what a route expects.
    for (const path of ['/api/runs/%00', '/api/runs/x/events?after=-1', `/api/workflows/${id}/runs?limit=abc`, `/api/workflows/${id}/runs?before=-5`, '/api/workflows/..%2F..', `/api/experiments/${experiment.id}/rounds/abc/events`, '/api/experiments/nope']) {
      const { status } = await server.api(path)
      if (status >= 500) failures.push(`GET ${path} answered ${status}`)
    }
    expect(failures).toEqual([])
    expect(server.output()).not.toMatch(/unhandled/i)
  }, 120_000)
})
