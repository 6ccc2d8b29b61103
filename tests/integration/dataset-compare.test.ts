import { afterEach, describe, expect, it } from 'vitest'
import { parseSse, startAppServer, type AppServer } from '../support/app-server'

const servers: AppServer[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop('SIGKILL')
})

/** Judged offline by a scorer: "contains" scores 1 the cases whose text names the product, 0 the others; the threshold decides. */
const evaluator = (threshold: number) => ({
  evaluation_type: 'scorers', pass_threshold: threshold,
  scorers: [{ type: 'contains', threshold, options: { values: ['judgeflow'] } }],
})
const csv = ['id,actual', 'a,judgeflow runs it', 'b,judgeflow and more', 'c,nothing here', 'd,still nothing'].join('\n')

async function finishedRun(app: AppServer, body: Record<string, unknown>): Promise<string> {
  const started = await app.api('/api/dataset-runs', { body })
  expect(started.status).toBe(202)
  const events = parseSse(await (await fetch(`${app.url}/api/dataset-runs/${started.body.id}/events`)).text())
  expect(events.at(-1)).toMatchObject({ event: 'finished', data: { status: 'finished' } })
  return started.body.id
}

describe('GET /api/dataset-runs/:id/compare', () => {
  it('sets two finished runs of one dataset side by side: headline figures, regressions, fixes, McNemar’s p', async () => {
    const app = await startAppServer()
    servers.push(app)
    const dataset = await app.api('/api/datasets', { body: { name: 'mentions', format: 'csv', text: csv } })
    expect(dataset.status).toBe(201)
    const lenient = await finishedRun(app, { dataset: 'mentions', target: { evaluator: evaluator(0) } })
    const strict = await finishedRun(app, { dataset: 'mentions', target: { evaluator: evaluator(0.5) } })

    const compared = await app.api(`/api/dataset-runs/${strict}/compare?baseline=${lenient}`)
    expect(compared.status).toBe(200)
    expect(compared.body).toMatchObject({
      current: { id: strict, cases: 4, passed: 2, failed: 2, errored: 0, pass_rate: 0.5 },
      baseline: { id: lenient, cases: 4, passed: 4, failed: 0, pass_rate: 1 },
      report: lenient, regressions: ['c', 'd'], fixes: [],
    })
    // Two discordant pairs, both one way: the exact two-sided p is 2 · 0.5² = 0.5.
    expect(compared.body.mcnemar_p).toBe(0.5)
    const back = await app.api(`/api/dataset-runs/${lenient}/compare?baseline=${strict}`)
    expect(back.body).toMatchObject({ regressions: [], fixes: ['c', 'd'] })

    expect(await app.api(`/api/dataset-runs/${strict}/compare`)).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^Invalid query: baseline: /) } })
    expect(await app.api(`/api/dataset-runs/${strict}/compare?baseline=nope`)).toMatchObject({ status: 400, body: { message: 'baseline: "nope" is not a run of the same dataset' } })
    expect((await app.api(`/api/dataset-runs/nope/compare?baseline=${strict}`)).status).toBe(404)
  })
  it('reads each changed case against its label: pass → fail on a case labelled fail is a fix that now agrees', async () => {
    const app = await startAppServer()
    servers.push(app)
    const labelled = ['id,actual,expected_verdict', 'a,judgeflow runs it,pass', 'b,judgeflow and more,pass', 'c,nothing here,fail', 'd,still nothing,pass'].join('\n')
    expect((await app.api('/api/datasets', { body: { name: 'labelled', format: 'csv', text: labelled } })).status).toBe(201)
    const lenient = await finishedRun(app, { dataset: 'labelled', target: { evaluator: evaluator(0) } })
    const strict = await finishedRun(app, { dataset: 'labelled', target: { evaluator: evaluator(0.5) } })

    const compared = await app.api(`/api/dataset-runs/${strict}/compare?baseline=${lenient}`)
    expect(compared.body).toMatchObject({
      regressions: ['d'], fixes: ['c'], mcnemar_p: 0.5,
      changes: [
        { case_id: 'c', before: 'passed', after: 'failed', expected: 'fail', label: 'now_agrees' },
        { case_id: 'd', before: 'passed', after: 'failed', expected: 'pass', label: 'now_disagrees' },
      ],
    })
  })
})
