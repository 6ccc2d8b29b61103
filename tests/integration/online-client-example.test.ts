import { execFile } from 'node:child_process'
import { resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, waitFor, type AppServer } from '../support/app-server'

/**
 * The README's client example, run as it is written (`node examples/online/send-spans.mjs`) against
 * the built server with a token: OpenTelemetry's SDK and OTLP/HTTP exporter deliver its GenAI span,
 * an online rule scores it with the offline judge, and a wrong token makes the app fail loudly.
 * JUDGEFLOW_TEST_SERVER_ENTRY runs another build's server (the checkout's `.output` by default).
 */
const example = resolve(import.meta.dirname, '../../examples/online/send-spans.mjs')
const token = 'online-client-example-token-0123456789'
const auth = { authorization: `Bearer ${token}` }
let server: AppServer

beforeAll(async () => {
  server = await startAppServer({ entry: process.env.JUDGEFLOW_TEST_SERVER_ENTRY || undefined, env: { JUDGEFLOW_TOKEN: token } })
})
afterAll(async () => {
  await server?.stop('SIGKILL')
})

function runExample(env: Record<string, string>) {
  return promisify(execFile)(process.execPath, [example], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${server.url}/v1/traces`, ...env },
    timeout: 30_000,
  })
}

describe('the README\'s OpenTelemetry client example', () => {
  it('sends a GenAI span that a rule scores, and fails when the token is wrong', async () => {
    const criteria = { evaluation_type: 'criteria', model: 'local:heuristic', criteria: [{ name: 'helpfulness', weight: 1 }], pass_threshold: 0.5 }
    const rule = await server.api('/api/online/rules', { headers: auth, body: { name: 'example', evaluator: { config: criteria }, sample_rate: 1, max_per_minute: null } })
    expect(rule.status).toBe(201)

    const { stdout } = await runExample({ JUDGEFLOW_TOKEN: token })
    const [, traceId, spanId] = /^sent span ([0-9a-f]{32})\/([0-9a-f]{16}) to (\S+)$/m.exec(stdout) ?? []
    expect(traceId).toBeDefined()
    const scored = await waitFor(async () => {
      const { body } = await server.api(`/api/online/scores?rule=${rule.body.id}`, { headers: auth })
      return body.decisions.find((d: { span_id: string }) => d.span_id === spanId)
    }, 30_000, 'the example\'s span scored')
    expect(scored).toMatchObject({
      trace_id: traceId, status: 'scored', verdict: expect.stringMatching(/^(pass|fail)$/),
      span: { name: 'chat gpt-4o', service_name: 'support-bot', model: 'gpt-4o-2024-08-06', input: 'How long do refunds take?', output: 'Refunds reach your card within 5 business days.' },
    })
    expect(typeof scored.score).toBe('number')
    expect((await server.api(`/api/runs/${scored.run_id}`, { headers: auth })).body.status).toBe('succeeded')

    const refused = runExample({ JUDGEFLOW_TOKEN: 'not-the-token' })
    await expect(refused).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('Authorization: Bearer <JUDGEFLOW_TOKEN>') })
  })
})
