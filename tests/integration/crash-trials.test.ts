import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lastUserText } from '../support/fake-llm'
import { tempDbPath, useServersWithFakeLLM, waitFor } from '../support/app-server'
import { startReviewRound } from '../support/experiments'
import { runWhen } from '../support/runs'
import { llmChain } from '../support/workflows'

/**
 * 20 trials: several runs of a five-call workflow going at once, the server SIGKILLed at a random
 * moment, restarted on the same database. Every step output committed before the kill is still
 * there after it, unchanged; every run ends succeeded (resumed); the database checks ok.
 */
const TRIALS = 20
const { fake, start } = useServersWithFakeLLM({ beforeAll, afterAll })

const workflow = llmChain(['a', 'b', 'c', 'd', 'e'])
/** A seeded random sequence, so a failing trial can be replayed. */
function random(seed: number) {
  return () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
}

describe('crash safety, repeated', () => {
  it(`survives ${TRIALS} SIGKILLs at random points of running workflows`, async () => {
    fake.onRequest(request => ({ text: `answer to ${lastUserText(request).split(' ')[1]}`, delayMs: 20 + (lastUserText(request).length % 7) * 10 }))
    const next = random(20261122)
    let killedMidRun = 0
    for (let trial = 0; trial < TRIALS; trial++) {
      const dbPath = tempDbPath()
      const first = await start({ dbPath, env: fake.env() })
      const { body: wf } = await first.api('/api/workflows', { body: workflow })
      const ids: string[] = []
      for (let i = 0; i < 3; i++) ids.push((await first.api(`/api/workflows/${wf.id}/runs`, { body: {} })).body.id)
      await new Promise(resolve => setTimeout(resolve, Math.floor(next() * 400)))
      await first.stop('SIGKILL')

      const db = new Database(dbPath, { readonly: true })
      const before = db.prepare(`select run_id, node_id, attempt, output from step_runs where status = 'succeeded'`).all() as Array<{ run_id: string, node_id: string, attempt: number, output: string }>
      if ((db.prepare(`select count(*) as n from runs where status in ('queued', 'running')`).get() as { n: number }).n) killedMidRun++
      db.close()

      const second = await start({ dbPath, env: fake.env() })
      for (const id of ids) {
        const run = await runWhen(second, id, body => ['succeeded', 'failed', 'interrupted', 'cancelled'].includes(body.status), 20_000, `trial ${trial}: run ${id}`)
        expect(run.status, `trial ${trial}`).toBe('succeeded')
        expect(run.output).toBe('answer to e')
      }
      await second.stop()
      const after = new Database(dbPath, { readonly: true })
      for (const row of before) {
        const kept = after.prepare('select status, output from step_runs where run_id = ? and node_id = ? and attempt = ?').get(row.run_id, row.node_id, row.attempt)
        expect(kept, `trial ${trial}: ${row.node_id} of ${row.run_id}`).toEqual({ status: 'succeeded', output: row.output })
      }
      expect(after.pragma('integrity_check', { simple: true })).toBe('ok')
      after.close()
    }
    // The kills did land in the middle of runs, not only before or after them.
    expect(killedMidRun).toBeGreaterThanOrEqual(TRIALS / 2)
  }, 300_000)

  it('on SIGTERM, finishes the steps in flight before exiting; the run then resumes', async () => {
    fake.reset()
    fake.onRequest(request => ({ text: `answer to ${lastUserText(request).split(' ')[1]}`, delayMs: lastUserText(request).startsWith('step b') ? 600 : 10 }))
    const dbPath = tempDbPath()
    const first = await start({ dbPath, env: fake.env() })
    const { body: wf } = await first.api('/api/workflows', { body: workflow })
    const { body: run } = await first.api(`/api/workflows/${wf.id}/runs`, { body: {} })
    await waitFor(() => fake.requests.some(r => lastUserText(r).startsWith('step b')), 10_000, 'step b in flight')
    await first.stop('SIGTERM')
    const db = new Database(dbPath, { readonly: true })
    const b = db.prepare(`select status from step_runs where run_id = ? and node_id = 'b'`).get(run.id)
    db.close()
    // The in-flight step was allowed to finish and was committed before the process exited.
    expect(b).toEqual({ status: 'succeeded' })
    const second = await start({ dbPath, env: fake.env() })
    const done = await runWhen(second, run.id, body => body.status === 'succeeded', 15_000, 'the run after SIGTERM')
    expect(done.output).toBe('answer to e')
    expect(fake.requests.filter(r => lastUserText(r).startsWith('step b'))).toHaveLength(1)
  })
})

describe('an experiment round across a crash', () => {
  it('is picked up after a SIGKILL: its runs resume, then it is judged and reported', async () => {
    fake.reset()
    fake.onRequest(request => ({ text: `review: unlimited liability ${lastUserText(request).length}`, delayMs: 300 }))
    const dbPath = tempDbPath()
    const first = await start({ dbPath, env: fake.env() })
    const { experiment } = await startReviewRound(first, { name: 'crash', documents: [{ id: 'd', text: 'Clause 4: unlimited liability.' }] })
    await waitFor(() => fake.requests.length > 0, 10_000, 'the first call of the round')
    await first.stop('SIGKILL')

    const second = await start({ dbPath, env: fake.env() })
    expect(second.output()).toContain('following 1 unfinished experiment round(s)')
    const round = await waitFor(async () => {
      const { body } = await second.api(`/api/experiments/${experiment.id}`)
      return ['finished', 'failed'].includes(body.rounds[0].status) && body.rounds[0]
    }, 30_000, 'the round after the restart')
    expect(round.status).toBe('finished')
    expect(round.judgments).toHaveLength(4)
    expect(round.report.variants.a.category_rates.main).toBe(1)
  })
})
