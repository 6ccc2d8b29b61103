import Database from 'better-sqlite3'
import autocannon from 'autocannon'
import { startAppServer } from '../tests/support/app-server'
import { report } from './lib'

/** A pinned 5-node quality gate: runs offline, so the figure is judgeflow's own cost. */
const pinnedGate = {
  name: 'bench gate',
  nodes: [
    { id: 'in', type: 'input' },
    { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Answer {{input.question}}' }, pinned: ['an answer'] },
    { id: 'check', type: 'condition', config: { left: '{{steps.draft.text}}', op: 'contains', right: 'answer' } },
    { id: 'ok', type: 'output', config: { verdict: 'pass', value: '{{steps.draft.text}}' } },
    { id: 'ko', type: 'output', config: { verdict: 'fail' } },
  ],
  edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'check' }, { from: 'check', to: 'ok', when: 'true' }, { from: 'check', to: 'ko', when: 'false' }],
}

export async function benchApiThroughput() {
  const server = await startAppServer({ env: { JUDGEFLOW_MAX_CONCURRENT_RUNS: '64' } })
  try {
    const { body: wf } = await server.api('/api/workflows', { body: pinnedGate })
    const started = performance.now()
    const result = await autocannon({
      url: `${server.url}/api/workflows/${wf.id}/runs`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: { question: 'why?' } }),
      connections: 32,
      duration: 8,
    })
    const ok = result['2xx']
    // Past the run queue's limit (JUDGEFLOW_MAX_QUEUED_RUNS) a start is refused with 429 and
    // Retry-After: the server's back-pressure, counted apart. Any other non-2xx answer is an error.
    const refused = (result.statusCodeStats as Record<string, { count: number }> | undefined)?.['429']?.count ?? 0
    if (result.non2xx - refused || result.errors) throw new Error(`${result.non2xx - refused} non-2xx answers other than 429 and ${result.errors} errors`)
    report({ name: 'POST /api/workflows/:id/runs throughput (pinned 5-node workflow, loopback): runs accepted', value: ok / 8, unit: 'runs/s', target: '>= 500' })
    report({ name: 'starts refused with 429 under that load (run queue full, JUDGEFLOW_MAX_QUEUED_RUNS 1,000)', value: refused / 8, unit: 'answers/s', target: 'reported' })
    report({ name: 'POST /api/workflows/:id/runs latency p99 under that load', value: result.latency.p99, unit: 'ms', target: '<= 200' })
    // The runs themselves go on in the background: how long until every accepted run has finished?
    const db = new Database(server.dbPath, { readonly: true })
    const count = db.prepare(`select count(*) as n from runs where status in ('queued', 'running')`)
    while ((count.get() as { n: number }).n > 0) await new Promise(resolve => setTimeout(resolve, 50))
    const drained = (performance.now() - started) / 1000
    const finished = db.prepare(`select count(*) as n from runs where status = 'succeeded'`).get() as { n: number }
    db.close()
    if (finished.n < ok) throw new Error(`${ok - finished.n} accepted runs did not succeed`)
    report({ name: 'runs completed end to end under that load (accepted, executed, committed)', value: finished.n / drained, unit: 'runs/s', target: '>= 500' })
  }
  finally {
    await server.stop()
  }
}
