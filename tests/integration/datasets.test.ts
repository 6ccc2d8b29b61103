import Database from 'better-sqlite3'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { parseSse, useServersWithFakeLLM, waitFor } from '../support/app-server'

const { fake, start } = useServersWithFakeLLM({ beforeAll, afterAll, afterEach })

/** An LLM answer judged offline: one LLM call per case. */
const answers = {
  name: 'Answers',
  nodes: [
    { id: 'in', type: 'input', config: { fields: { question: { type: 'string', required: true } } } },
    { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Answer {{input.question}}' } },
    { id: 'judge', type: 'evaluator', config: { evaluation_type: 'scoring', model: 'local:heuristic', pass_threshold: 0.3, context: '{{input.question}}' } },
  ],
  edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }],
}

async function server(env: Record<string, string> = {}, dbPath?: string) {
  return start({ dbPath, env: { ...fake.env(), ...env } })
}

const csv = ['id,question,tags,expected_verdict', ...Array.from({ length: 10 }, (_, i) => `q${i + 1},What is step ${i + 1} of the reset?,reset,pass`)].join('\n')

describe('datasets over HTTP', () => {
  it('imports a CSV, runs a workflow over it with live progress, and gives the report as JSON, Markdown, JUnit, HTML, CSV and JSONL', async () => {
    fake.onRequest(request => ({ text: `Step: ${JSON.stringify(request.body).match(/step \d+/)?.[0]} of the reset is to open Settings.` }))
    const app = await server()
    expect((await app.api('/api/workflows', { body: answers })).status).toBe(201)
    const bad = await app.api('/api/datasets', { body: { name: 'x', format: 'csv', text: 'id,question,expected_score\nq1,a,2\n' } })
    expect(bad).toMatchObject({ status: 400, body: { message: 'the CSV file has a problem, so nothing was imported: line 2, expected_score: "2" is not a score between 0 and 1.' } })
    const imported = await app.api('/api/datasets', { body: { name: 'reset questions', format: 'csv', text: csv } })
    expect(imported).toMatchObject({ status: 201, body: { name: 'reset questions', version: 1, case_count: 10 } })
    expect((await app.api('/api/datasets', { body: { name: 'reset questions', cases: [{ input: {} }] } })).status).toBe(409)

    // Before any run, the estimate from the prompts: one LLM call per case, the offline judge free.
    const asked = { dataset: 'reset questions', target: { workflow_id: 'Answers' }, concurrency: 3, gates: { min_pass_rate: 0.9 } }
    const before = await app.api('/api/dataset-runs/estimate', { body: asked })
    expect(before).toMatchObject({ status: 200, body: { basis: 'prompts', case_runs: 10, calls: 10 } })
    expect(before.body.estimate_usd).toBeGreaterThan(0)
    const started = await app.api('/api/dataset-runs', { body: asked })
    expect(started).toMatchObject({ status: 202, body: { status: 'running', dataset_version: 1 } })
    const events = parseSse(await (await fetch(`${app.url}/api/dataset-runs/${started.body.id}/events`)).text())
    expect(events.at(-1)).toMatchObject({ event: 'finished', data: { status: 'finished' } })
    const run = await app.api(`/api/dataset-runs/${started.body.id}`)
    expect(run.body).toMatchObject({ status: 'finished', progress: { done: 10, errored: 0 }, report: { cases: 10, errored: 0, gates: expect.arrayContaining([expect.objectContaining({ gate: 'min_pass_rate' })]) } })
    // Each answer: 11 tokens in, 7 out at gpt-4o-mini's price; the next run's estimate is this one's cost.
    expect(run.body.report).toMatchObject({ cost_usd: 0.0000585, estimate_usd: before.body.estimate_usd, tokens: { judge: { input: 0, output: 0 } } })
    expect((await app.api('/api/dataset-runs/estimate', { body: asked })).body).toEqual({ estimate_usd: 0.0000585, case_runs: 10, basis: 'last_run', from_dataset_run: started.body.id })
    // Every case ran as a normal run of the workflow, which the inspector opens.
    const caseRun = await app.api(`/api/runs/${run.body.report.results[0].run_id}`)
    expect(caseRun).toMatchObject({ status: 200, body: { status: 'succeeded' } })
    const markdown = await app.api(`/api/dataset-runs/${started.body.id}/report?format=markdown`)
    expect(markdown.headers.get('content-type')).toMatch(/^text\/markdown/)
    expect(markdown.body).toMatch(/^# Dataset reset questions/)
    const junit = await app.api(`/api/dataset-runs/${started.body.id}/report?format=junit`)
    // A testcase per case, and one per gate in the gates' testsuite.
    expect(String(junit.body).match(/<testcase classname="reset questions" /g)).toHaveLength(10)
    expect(String(junit.body)).toContain('<testsuite name="gates" tests="2"')
    const fileName = `reset-questions-v1-${started.body.id.slice(0, 8)}`
    const html = await app.api(`/api/dataset-runs/${started.body.id}/report?format=html`)
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(html.headers.get('content-disposition')).toBe(`attachment; filename="${fileName}.html"`)
    expect(html.headers.get('content-security-policy')).toBe('default-src \'none\'; style-src \'unsafe-inline\'; script-src \'unsafe-inline\'')
    expect(String(html.body).match(/<tr data-outcome=/g)).toHaveLength(10)
    const results = await app.api(`/api/dataset-runs/${started.body.id}/report?format=csv`)
    expect(results.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(results.headers.get('content-disposition')).toBe(`attachment; filename="${fileName}.csv"`)
    expect(String(results.body).trimEnd().split('\n')).toHaveLength(11)
    expect(String(results.body).split('\n')[0]).toBe('case_id,repeat,status,verdict,score,latency_ms,failed_check,reason,output')
    const jsonl = await app.api(`/api/dataset-runs/${started.body.id}/report?format=jsonl`)
    expect(jsonl.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8')
    expect(String(jsonl.body).trimEnd().split('\n').map(line => JSON.parse(line))).toEqual((await app.api(`/api/dataset-runs/${started.body.id}/report`)).body.results)

    const exported = await app.api(`/api/datasets/${imported.body.id}/export?format=csv`)
    expect(exported.headers.get('content-disposition')).toBe('attachment; filename="reset-questions-v1.csv"')
    expect(String(exported.body).split('\n')[0]).toBe('id,question,tags,expected_verdict,expected_score,reference')
    const edited = await app.api(`/api/datasets/${imported.body.id}`, { method: 'PUT', body: { cases: [{ id: 'only', input: { question: 'Why?' } }] } })
    expect(edited.body).toMatchObject({ version: 2, case_count: 1 })
    expect((await app.api(`/api/datasets/${imported.body.id}?version=1`)).body.cases).toHaveLength(10)
    expect((await app.api(`/api/datasets/${imported.body.id}/runs`)).body).toHaveLength(1)
  })

  it('exports CSV with no formula cell, and the export imports back to the same cases', async () => {
    const app = await server()
    const cases = [
      { id: '=1+1', input: { question: '=cmd|\' /C calc\'!A0', link: '=HYPERLINK("http://x.example","click")', plus: '+1+1', at: '@SUM(1)', minus: '-1+2', tab: '\t=1', count: -3 }, tags: ['@tag'] },
      { id: 'plain', input: { question: 'How do I reset?', link: 'a=b', plus: '1+1', at: 'me@x.example', minus: '1-2', tab: 'x', count: 2 } },
    ]
    const created = await app.api('/api/datasets', { body: { name: 'formulas', cases } })
    expect(created.status).toBe(201)
    const exported = await app.api(`/api/datasets/${created.body.id}/export?format=csv`)
    expect(String(exported.body).split('\n').slice(0, 2)).toEqual([
      'id,question,link,plus,at,minus,tab,count,tags,expected_verdict,expected_score,reference',
      `'=1+1,'=cmd|' /C calc'!A0,"'=HYPERLINK(""http://x.example"",""click"")",'+1+1,'@SUM(1),'-1+2,'\t=1,-3,'@tag,,,`,
    ])
    const reimported = await app.api('/api/datasets', { body: { name: 'formulas again', format: 'csv', text: exported.body } })
    expect(reimported.status).toBe(201)
    const stored = await app.api(`/api/datasets/${reimported.body.id}`)
    // Numbers come back as text, as from any CSV; every text cell comes back as it was.
    expect(stored.body.cases).toEqual(cases.map(c => ({ ...c, input: { ...c.input, count: String(c.input.count) } })))
  })

  it('a server killed mid-run: the next one resumes the dataset run, keeps the finished cases and runs none of them twice', async () => {
    fake.onRequest(request => ({ text: `The answer to ${JSON.stringify(request.body).match(/step \d+/)?.[0]}.`, delayMs: 250 }))
    const first = await server()
    await first.api('/api/workflows', { body: answers })
    await first.api('/api/datasets', { body: { name: 'reset questions', format: 'csv', text: csv } })
    const started = await first.api('/api/dataset-runs', { body: { dataset: 'reset questions', target: { workflow_id: 'Answers' }, concurrency: 2 } })
    const db = new Database(first.dbPath, { readonly: true })
    const doneCases = () => db.prepare(`select case_id as caseId, run_id as runId from dataset_run_cases where dataset_run_id = ? and status != 'running'`).all(started.body.id) as Array<{ caseId: string, runId: string }>
    await waitFor(() => doneCases().length >= 3, 20_000, 'three finished cases')
    await first.stop('SIGKILL')
    const finishedBefore = doneCases()
    db.close()
    const asked = (caseId: string) => fake.requests.filter(r => JSON.stringify(r.body).includes(`step ${caseId.slice(1)} `)).length

    // Leases of the killed process expire quickly here, so the next server takes its runs over at once.
    const second = await server({ JUDGEFLOW_RUN_LEASE_MS: '1000' }, first.dbPath)
    const report = await waitFor(async () => {
      const { body } = await second.api(`/api/dataset-runs/${started.body.id}`)
      return body.status === 'finished' && body.report
    }, 30_000, 'the dataset run to finish')
    expect(report).toMatchObject({ cases: 10, errored: 0 })
    for (const { caseId, runId } of finishedBefore) {
      expect(report.results.find((r: { case_id: string }) => r.case_id === caseId).run_id).toBe(runId)
      expect(asked(caseId)).toBe(1)
    }
    // A case under way at the kill resumes from its committed steps: asked again at most once.
    for (let i = 1; i <= 10; i++) expect(asked(`q${i}`)).toBeLessThanOrEqual(2)
  }, 60_000)
})
