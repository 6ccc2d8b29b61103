import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lastUserText, type RecordedRequest } from '../support/fake-llm'
import { readSse, useAppWithFakeLLM, waitFor, type AppServer } from '../support/app-server'

const app = useAppWithFakeLLM({ beforeAll, afterAll })
const { fake } = app
let server: AppServer
beforeAll(() => { server = app.server })

const documents = [
  { id: 'contract', text: 'Clause 4: liability is unlimited. Clause 9: renews automatically.', problems: [{ id: 'A1', category: 'main', criteria: 'unlimited liability' }, { id: 'A2', category: 'adjacent', criteria: 'automatic renewal' }] },
  { id: 'spec', text: 'DELETE /users needs no token. Cursor holds the row id.', problems: [{ id: 'B1', category: 'main', criteria: 'delete without authorization' }, { id: 'B2', category: 'adjacent', criteria: 'cursor leaks ids' }] },
]
const reviewer = {
  name: 'Reviewer',
  nodes: [
    { id: 'in', type: 'input', config: { fields: { document: { type: 'string', required: true } } } },
    { id: 'review', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Review this: {{input.document}}' } },
    { id: 'out', type: 'output', config: { value: '{{steps.review.text}}' } },
  ],
  edges: [{ from: 'in', to: 'review' }, { from: 'review', to: 'out' }],
}

/** The step under test answers by variant; the judge gives ○ to variant "careful" and △/× to "terse". */
function answer(request: RecordedRequest) {
  const schema = request.body.response_format?.json_schema
  if (schema?.name === 'review_judgment') {
    const text = lastUserText(request)
    const careful = text.includes('CAREFUL REVIEW')
    const ids = [...text.matchAll(/^- ([AB]\d) \[/gm)].map(m => m[1]!)
    return { json: { problems: ids.map((id, i) => ({ id, mark: careful ? '○' : i === 0 ? '△' : '×', reason: careful ? 'meets every criterion' : 'misses the core' })), bonuses: careful ? [{ finding: 'extra', reason: 'in scope' }] : [], penalties: [] } }
  }
  const prompt = lastUserText(request)
  return { text: prompt.startsWith('Careful') ? 'CAREFUL REVIEW: every problem found.' : 'Looks fine.' }
}

describe('an experiment round, end to end', () => {
  it('runs every variant × document × run through the engine, judges each output, and reports', async () => {
    fake.onRequest(answer)
    const { body: workflow } = await server.api('/api/workflows', { method: 'POST', body: reviewer })
    const { status, body: experiment } = await server.api('/api/experiments', { method: 'POST', body: {
      name: 'review prompt', scope: 'Contract and API risks only.', documents,
      target: { workflow_id: workflow.id, node: 'review' },
      variants: [{ id: 'terse', config: {} }, { id: 'careful', config: { prompt: 'Careful review, every clause: {{input.document}}' } }],
      current_best: 'terse', judge_model: 'openai:gpt-4o-mini',
    } })
    expect(status).toBe(201)
    expect(experiment.runs_per_document).toBe(2)

    const started = await server.api(`/api/experiments/${experiment.id}/rounds`, { method: 'POST' })
    expect(started.status).toBe(202)
    expect(started.body.runs).toHaveLength(8)
    const events = await readSse(`${server.url}/api/experiments/${experiment.id}/rounds/1/events`, {}, 20_000)
    expect(events.at(-1)).toMatchObject({ event: 'round.finished' })
    expect(events.at(-1)!.data).toMatchObject({ status: 'finished', total: 8, done: 8 })

    const { body } = await server.api(`/api/experiments/${experiment.id}`)
    const round = body.rounds[0]
    expect(round.judgments).toHaveLength(8)
    expect(round.report.variants.terse).toMatchObject({ overall_mean: 0.5, overall_sd: 0 })
    expect(round.report.variants.careful).toMatchObject({ overall_mean: 2.5, overall_sd: 0, category_rates: { main: 1, adjacent: 1 } })
    expect(round.report.comparisons[0]).toMatchObject({ variant: 'careful', raw_mean_diff: 2, decision: 'variant' })
    expect(round.report.recommendation).toMatchObject({ adopt: 'careful', changes_best: true })
    // Every run asked the model anew (no response cache); the judge, at temperature 0, judged each
    // distinct output once (identical outputs of the fake model share its cached answer).
    expect(fake.requests.filter(r => !r.body.response_format)).toHaveLength(8)
    const judgeCalls = fake.requests.filter(r => r.body.response_format?.json_schema?.name === 'review_judgment')
    expect(judgeCalls).toHaveLength(4)
    expect(judgeCalls[0]!.body.messages[0].content).toContain('When in doubt, give no penalty')

    // A reviewer corrects one judgment: the report follows.
    const corrected = structuredClone(round.judgments)
    corrected.find((j: { variant: string }) => j.variant === 'careful').problems.A1 = { mark: '×', reason: 'on a second read, the finding is about another clause' }
    const { body: fixed } = await server.api(`/api/experiments/${experiment.id}/rounds/1/judgments`, { method: 'PUT', body: { judgments: corrected } })
    expect(fixed.report.variants.careful.overall_mean).toBe(2.25)
    expect(fixed.judgments.find((j: { variant: string }) => j.variant === 'careful').problems.A1.reason).toContain('second read')

    // Adopting the variant: the next round runs only the other variant and takes the best's scores from history.
    await server.api(`/api/experiments/${experiment.id}/adopt`, { method: 'POST', body: { variant: 'careful' } })
    fake.requests.length = 0
    const second = await server.api(`/api/experiments/${experiment.id}/rounds`, { method: 'POST' })
    expect(second.body.runs.map((r: { variant: string }) => r.variant)).toEqual(['terse', 'terse', 'terse', 'terse'])
    const done = await waitFor(async () => {
      const { body: e } = await server.api(`/api/experiments/${experiment.id}`)
      return e.rounds[1]?.status === 'finished' && e.rounds[1]
    }, 20_000, 'round 2')
    expect(done.report.current_best).toBe('careful')
    expect(done.report.variants.careful.overall_mean).toBe(2.25)
    expect(done.report.comparisons[0]).toMatchObject({ variant: 'terse', decision: 'current_best' })
  })

  it('judges pinned outputs with the fake LLM judge, and a round can be cancelled', async () => {
    fake.reset()
    fake.onRequest(answer)
    const pinned = { ...reviewer, name: 'Pinned reviewer', nodes: reviewer.nodes.map(n => (n.id === 'review' ? { ...n, pinned: ['CAREFUL REVIEW: unlimited liability, automatic renewal.'] } : n)) }
    const { body: workflow } = await server.api('/api/workflows', { method: 'POST', body: pinned })
    const { body: experiment } = await server.api('/api/experiments', { method: 'POST', body: {
      name: 'pinned', documents, target: { workflow_id: 'Pinned reviewer', node: 'review' },
      variants: [{ id: 'a' }, { id: 'b', config: { temperature: 0.7 } }], current_best: 'a', judge_model: 'openai:gpt-4o-mini',
    } })
    await server.api(`/api/experiments/${experiment.id}/rounds`, { method: 'POST' })
    const round = await waitFor(async () => {
      const { body } = await server.api(`/api/experiments/${experiment.id}`)
      return body.rounds[0]?.status === 'finished' && body.rounds[0]
    }, 20_000, 'the pinned round')
    // The step never called a model (pinned), the judge did; both variants got the same answer.
    expect(fake.requests.every(r => r.body.response_format?.json_schema?.name === 'review_judgment')).toBe(true)
    expect(round.report.variants.a).toMatchObject({ overall_mean: 2.5, category_rates: { main: 1, adjacent: 1 } })
    expect(round.report.comparisons[0]).toMatchObject({ variant: 'b', raw_mean_diff: 0, decision: 'current_best' })
    expect(round.runs.every((r: { run_id: string }) => r.run_id)).toBe(true)
    const { body: run } = await server.api(`/api/runs/${round.runs[0].run_id}`)
    expect(run).toMatchObject({ status: 'succeeded', workflow_id: workflow.id })

    // Cancel: a slow model, a round started, then cancelled; its runs stop.
    fake.onRequest(request => ({ ...answer(request), delayMs: 3_000 }))
    const { body: slow } = await server.api('/api/experiments', { method: 'POST', body: {
      name: 'slow', documents, target: { workflow_id: 'Reviewer', node: 'review' }, variants: [{ id: 'a' }], current_best: 'a', judge_model: 'local:heuristic',
    } })
    await server.api(`/api/experiments/${slow.id}/rounds`, { method: 'POST' })
    const cancelled = await server.api(`/api/experiments/${slow.id}/rounds/1/cancel`, { method: 'POST' })
    expect(cancelled.body.status).toBe('cancelled')
    const after = await waitFor(async () => {
      const { body } = await server.api(`/api/experiments/${slow.id}`)
      const statuses = await Promise.all(body.rounds[0].runs.map(async (r: { run_id: string }) => (await server.api(`/api/runs/${r.run_id}`)).body.status))
      return statuses.every(s => s === 'cancelled') && body.rounds[0]
    }, 10_000, 'the cancelled runs')
    expect(after.status).toBe('cancelled')
    expect(after.report).toBeNull()
  })

  it('refuses corrections that do not match the round, naming what is wrong, and keeps the stored judgments', async () => {
    const pinned = { ...reviewer, name: 'Pinned for corrections', nodes: reviewer.nodes.map(n => (n.id === 'review' ? { ...n, pinned: ['unlimited liability'] } : n)) }
    const { body: workflow } = await server.api('/api/workflows', { method: 'POST', body: pinned })
    const { body: experiment } = await server.api('/api/experiments', { method: 'POST', body: {
      name: 'corrections', documents, target: { workflow_id: workflow.id, node: 'review' },
      variants: [{ id: 'best' }, { id: 'other' }], current_best: 'best', runs_per_document: 1, judge_model: 'local:heuristic',
    } })
    await server.api(`/api/experiments/${experiment.id}/rounds`, { method: 'POST' })
    const round = await waitFor(async () => {
      const { body } = await server.api(`/api/experiments/${experiment.id}`)
      return body.rounds[0]?.status === 'finished' && body.rounds[0]
    }, 20_000, 'the round')
    const stored = round.judgments as Array<{ variant: string, document: string, run: number, problems: Record<string, unknown> }>
    expect(stored.map(j => `${j.variant}/${j.document}/${j.run}`)).toEqual(['best/contract/1', 'best/spec/1', 'other/contract/1', 'other/spec/1'])
    const put = (judgments: unknown[]) => server.api(`/api/experiments/${experiment.id}/rounds/1/judgments`, { method: 'PUT', body: { judgments } })
    const message = async (judgments: unknown[]) => {
      const { status, body } = await put(judgments)
      expect(status).toBe(400)
      return body.message as string
    }
    const [best, bestSpec, other, otherSpec] = stored as [typeof stored[0], typeof stored[0], typeof stored[0], typeof stored[0]]

    expect(await message([{ ...best, document: 'memo' }, bestSpec, other, otherSpec])).toContain('judgments[0].document: "memo" is not one of the experiment\'s documents (contract, spec)')
    expect(await message([other, otherSpec])).toBe('Invalid body: judgments: 2 of round 1\'s 4 judgments are missing (variant "best", document "contract", run 1; variant "best", document "spec", run 1): send every judgment of the round, corrected or not; the report compares every variant with the current best "best", so its judgments are needed too')
    expect(await message([{ ...best, run: 999999999, problems: {} }, bestSpec, other, otherSpec])).toContain('judgments[0].run: variant "best" has no run 999999999 of document "contract" in round 1 (runs: 1)')
    expect(await message([{ ...best, variant: 'ghost' }, bestSpec, other, otherSpec])).toContain('judgments[0].variant: "ghost" was not judged in round 1 (variants: best, other)')
    expect(await message([{ ...best, problems: { A1: '○', Z9: '○' } }, bestSpec, other, otherSpec])).toContain('judgments[0].problems.Z9: "Z9" is not a problem of document "contract" (A1, A2); judgments[0].problems: variant "best", document "contract", run 1 has no mark for A2: every problem of document "contract" needs one')
    expect(await message([best, best, bestSpec, other, otherSpec])).toContain('judgments[1]: variant "best", document "contract", run 1 is judged twice (also judgments[0])')

    const { body: after } = await server.api(`/api/experiments/${experiment.id}`)
    expect(after.rounds[0].judgments).toEqual(stored)
    expect(after.rounds[0].report).toEqual(round.report)
    const fixed = await put([{ ...best, problems: { A1: '△', A2: '×' }, bonuses: [], penalties: [] }, bestSpec, other, otherSpec])
    expect(fixed.status).toBe(200)
    expect(fixed.body.report.variants.best.runs[0]).toMatchObject({ document: 'contract', score: 0.5 })
  })

  it('refuses an experiment whose current best is not a variant, and a target node that does not exist', async () => {
    const bad = await server.api('/api/experiments', { method: 'POST', body: { name: 'x', documents, target: { workflow_id: 'nope', node: 'n' }, variants: [{ id: 'a' }], current_best: 'b' } })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toContain('current_best: "b" is not one of the variants (a)')
    // A target workflow that does not exist is refused when the experiment is created, not at its first round.
    const missing = await server.api('/api/experiments', { method: 'POST', body: { name: 'x', documents, target: { workflow_id: 'nope', node: 'n' }, variants: [{ id: 'a' }], current_best: 'a' } })
    expect(missing.status).toBe(400)
    expect(missing.body.message).toContain('target.workflow_id: no workflow has the id or name "nope"')
  })
})
