import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createJudgeflow, loadConfig, type Judgeflow } from '../../../core'
import { stepJudgeFingerprint } from '../../../core/calibration'
import { queueCalibrationOf } from '../../../core/review/calibration'
import { apiRoutes, type ApiAnswer } from '../../support/api-routes'
import { createSqliteStore, openDatabase } from '../../../db'

/**
 * Where people and the judge part, and the judge re-run after its rubric changed, through the API:
 * four answers labelled by two reviewers, judged by an old rubric, then by the dataset run's judge
 * as it is now and by an edited one; each re-judgement kept beside the verdicts the items came with.
 */
const served = vi.hoisted(() => ({ app: undefined as unknown }))
vi.mock('../../../server/utils/context', () => ({ useJudgeflow: () => served.app }))

const json = (method: string, body: unknown): RequestInit => ({ method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
/** An offline judge: pass when the answer holds the word. */
const contains = (word: string) => ({ evaluation_type: 'scorers', pass_threshold: 0.5, scorers: [{ type: 'contains', threshold: 0.5, options: { values: [word] } }] })
const ANSWERS = ['judgeflow runs it', 'nobody knows', 'somewhere else', 'judgeflow again']
/** What the old rubric said of a1–a4, and two reviewers' labels: a3 ties. */
const OLD_VERDICTS = ['pass', 'pass', 'fail', 'fail']
const LABELS = { ana: ['pass', 'fail', 'fail', 'pass'], bo: ['pass', 'fail', 'pass', 'pass'] }

let call: Awaited<ReturnType<typeof apiRoutes>>
let app: Judgeflow
beforeAll(async () => {
  call = await apiRoutes([
    ['post', '/api/queues', 'queues/index.post.ts'],
    ['get', '/api/queues/:id', 'queues/[id].get.ts'],
    ['delete', '/api/queues/:id', 'queues/[id].delete.ts'],
    ['post', '/api/queues/:id/labels', 'queues/[id]/labels.post.ts'],
    ['post', '/api/queues/:id/next', 'queues/[id]/next.post.ts'],
    ['get', '/api/queues/:id/agreement', 'queues/[id]/agreement.get.ts'],
    ['get', '/api/queues/:id/disagreements', 'queues/[id]/disagreements.get.ts'],
    ['post', '/api/queues/:id/rejudge', 'queues/[id]/rejudge.post.ts'],
    ['post', '/api/queues/:id/items/:item/release', 'queues/[id]/items/[item]/release.post.ts'],
  ])
  app = createJudgeflow(loadConfig({}), { store: createSqliteStore(openDatabase(':memory:')), retention: false })
  served.app = app
})
afterAll(() => app.close(0))

const fingerprintOf = (config: Record<string, unknown>) => stepJudgeFingerprint(config, { defaultJudge: 'local:heuristic', metrics: app.metrics })

/** A dataset run judged by `contains('judgeflow')` whose cases kept the old rubric's verdicts; a queue of them labelled by ana and bo. */
async function labelledQueue(name: string) {
  const old = await fingerprintOf(contains('answer'))
  const dataset = await app.store.datasets.create(`${name}-answers`, ANSWERS.map((_, n) => ({ id: `a${n + 1}`, input: { question: `question ${n + 1}` } })))
  const run = await app.store.datasets.createRun({ datasetId: dataset.id, datasetVersion: 1, target: { evaluator: contains('judgeflow') }, options: {} })
  for (const [n, verdict] of OLD_VERDICTS.entries()) {
    const result = { case_id: `a${n + 1}`, repeat: 1, status: 'succeeded', verdict, reason: `old rubric: ${verdict}`, output: ANSWERS[n], judge_fingerprint: old.fingerprint, judge_fingerprint_parts: old.parts }
    await app.store.datasets.saveRunCase({ datasetRunId: run.id, caseId: `a${n + 1}`, repeat: 1, status: 'succeeded', runId: null, result })
  }
  const queue = (await call('/api/queues', json('POST', { name, reviewers_per_item: 2, items: { from: 'dataset_run', dataset_run_id: run.id } }))).body!
  const items = await app.store.review.items(queue.id as string)
  for (const [reviewer, labels] of Object.entries(LABELS)) {
    for (const [n, label] of labels.entries()) {
      expect((await call(`/api/queues/${queue.id}/labels`, json('POST', { item_id: items[n]!.id, reviewer, label }))).status).toBe(201)
    }
  }
  return { queueId: queue.id as string, items, old }
}

interface ListedItem {
  position: number
  kinds: string[]
  consensus: { label: string | null }
  judge: { verdict: string, reason: string }
  rejudged: { verdict: string } | null
  labels: Array<{ reviewer: string, label: string }>
}
interface Listed { items: ListedItem[] }

describe('a review queue\'s disagreements and its judge re-run', () => {
  it('lists the items where reviewers differ or their consensus is not the judge\'s verdict, with every label, the consensus and the judge\'s reason', async () => {
    const { queueId } = await labelledQueue('listed')
    const { status, body } = await call(`/api/queues/${queueId}/disagreements`)
    expect(status).toBe(200)
    const listed = (body as unknown as Listed).items
    // a1: all agree with the judge; a2: people say fail, the judge pass; a3: people tie; a4: people pass, the judge fail.
    expect(listed.map(i => [i.position, i.kinds])).toEqual([[2, ['judge']], [3, ['people']], [4, ['judge']]])
    expect(listed[0]).toMatchObject({
      input: { question: 'question 2' }, output: 'nobody knows', consensus: { label: 'fail', votes: 2, of: 2 },
      judge: { verdict: 'pass', reason: 'old rubric: pass' }, rejudged: null,
      labels: [{ reviewer: 'ana', label: 'fail', score: null, comment: null }, { reviewer: 'bo', label: 'fail', score: null, comment: null }],
    })
    expect(listed[1]!.consensus).toEqual({ label: null, reason: 'tied', tied: ['fail', 'pass'] })
    expect((await call('/api/queues/nope/disagreements')).status).toBe(404)
  })

  it('re-runs the judge the items came from, keeps the verdicts they came with, and gives κ before and after; an edited rubric too', async () => {
    const { queueId, items, old } = await labelledQueue('rejudged')
    const current = await fingerprintOf(contains('judgeflow'))
    // Before, on a1, a2, a4 (a3 ties): the judge pass pass fail against pass fail pass — p_o 1/3, p_e 2/3·2/3 + 1/3·1/3 = 5/9, κ (1/3 − 5/9) / (4/9) = −0.5.
    // After: the judge as it is now says pass fail fail pass, the consensus on a1, a2, a4 exactly: κ 1.
    const rejudged = await call(`/api/queues/${queueId}/rejudge`, json('POST', {}))
    expect(rejudged).toMatchObject({
      status: 200,
      body: {
        queue_id: queueId, judge: { from: 'the evaluator its items were judged by', fingerprint: current.fingerprint }, items: 4, judged: 4, changed: 2, errors: [],
        before: { fingerprint: old.fingerprint, kappa: -0.5, compared: 3, accuracy: 0.3333 },
        after: { fingerprint: current.fingerprint, kappa: 1, compared: 3, accuracy: 1, confusion: { pass: { pass: 2 }, fail: { fail: 1 } } },
      },
    })
    // The verdicts the items came with stay; the re-run's are kept beside them, under its fingerprint.
    const a2 = (await app.store.review.getItem(items[1]!.id))!
    expect(a2.judge).toMatchObject({ verdict: 'pass', fingerprint: old.fingerprint, rejudged: [{ verdict: 'fail', fingerprint: current.fingerprint }] })
    expect(((await call(`/api/queues/${queueId}/agreement`)).body as { judge: { kappa: number } }).judge.kappa).toBe(-0.5)
    // The queue now calibrates the judge as it is now, and still the old one on the verdicts it gave.
    const queue = (await app.store.review.getQueue(queueId))!
    expect(await queueCalibrationOf(app.store, current, queue)).toMatchObject({ status: 'calibrated', kappa: 1, labelled: 3 })
    expect(await queueCalibrationOf(app.store, old, queue)).toMatchObject({ status: 'calibrated', kappa: -0.5, labelled: 3 })

    // An edited rubric (pass on "nobody"): fail pass fail fail against pass fail pass on a1, a2, a4 —
    // p_o 0, p_e 1/3·2/3 + 2/3·1/3 = 4/9, κ −(4/9) / (5/9) = −0.8.
    const edited = await call(`/api/queues/${queueId}/rejudge`, json('POST', { config: contains('nobody') }))
    expect(edited.body).toMatchObject({ judge: { from: 'the evaluator config given' }, before: { kappa: -0.5 }, after: { kappa: -0.8, compared: 3, accuracy: 0 } })
    const listed = ((await call(`/api/queues/${queueId}/disagreements`)).body as unknown as Listed).items
    expect(listed.map(i => [i.position, i.kinds, i.rejudged?.verdict])).toEqual([
      [1, ['rejudged'], 'fail'], [2, ['judge', 'rejudged'], 'pass'], [3, ['people'], 'fail'], [4, ['judge', 'rejudged'], 'fail'],
    ])
    expect((await app.store.review.getItem(items[1]!.id))!.judge!.rejudged).toHaveLength(2)
  })

  it('re-runs a saved workflow\'s evaluator step in its current version; a bad judge is refused naming the field', async () => {
    const { queueId } = await labelledQueue('from-workflow')
    const definition = (word: string) => ({
      name: 'answers', nodes: [{ id: 'input', type: 'input' }, { id: 'judge', type: 'evaluator', config: { ...contains(word), actual: '{{input.answer}}' } }],
      edges: [{ from: 'input', to: 'judge' }],
    })
    const workflow = await app.store.workflows.create(definition('nobody') as never)
    await app.store.workflows.update(workflow.id, definition('judgeflow') as never)
    const answer = await call(`/api/queues/${queueId}/rejudge`, json('POST', { workflow_id: workflow.id }))
    expect(answer.body).toMatchObject({ judge: { from: 'step judge of workflow answers v2' }, after: { kappa: 1 } })
    const refusals: ApiAnswer[] = await Promise.all([
      call(`/api/queues/${queueId}/rejudge`, json('POST', { workflow_id: 'nope' })),
      call(`/api/queues/${queueId}/rejudge`, json('POST', { workflow_id: workflow.id, step_id: 'input' })),
      call(`/api/queues/${queueId}/rejudge`, json('POST', { step_id: 'judge' })),
      call(`/api/queues/${queueId}/rejudge`, json('POST', { config: { evaluation_type: 'scorers', scorers: [] } })),
    ])
    expect(refusals.map(r => r.status)).toEqual([400, 400, 400, 400])
    expect(refusals[0]!.body!.message).toBe('workflow_id: no workflow with id "nope"')
    expect(refusals[1]!.body!.message).toBe('step_id: workflow answers has no evaluator step "input"')
    expect(JSON.stringify(refusals[2]!.body)).toContain('workflow_id')
    expect(JSON.stringify(refusals[3]!.body)).toContain('scorers')
  })

  it('a reviewer gives an item back and another takes it; a queue is deleted with its items', async () => {
    const { body } = await call('/api/queues', json('POST', { name: 'housekeeping', reviewers_per_item: 1 }))
    const queueId = body!.id as string
    await app.store.review.addItems(queueId, ANSWERS.slice(0, 2).map((output, n) => ({
      source: { kind: 'run', run_id: `r${n}` }, input: 'question', output, context: null, judge: null,
    })))
    const next = async (reviewer: string) => ((await call(`/api/queues/${queueId}/next`, json('POST', { reviewer }))).body as { item: { id: string, position: number } }).item
    const taken = await next('ana')
    expect((await next('bo')).position).toBe(2)
    const release = (item: string, reviewer: string) => call(`/api/queues/${queueId}/items/${item}/release`, json('POST', { reviewer }))
    expect(await release(taken.id, 'ana')).toMatchObject({ status: 200, body: { item_id: taken.id, released: true } })
    expect((await next('cy')).position).toBe(1)
    expect((await release(taken.id, 'ana')).body).toMatchObject({ released: false })
    expect((await release('nope', 'ana')).status).toBe(404)
    expect((await release(taken.id, '')).status).toBe(400)

    expect((await call(`/api/queues/${queueId}`, { method: 'DELETE' })).status).toBe(204)
    expect((await call(`/api/queues/${queueId}`)).status).toBe(404)
    expect(await app.store.review.getItem(taken.id)).toBeNull()
    expect((await call(`/api/queues/${queueId}`, { method: 'DELETE' })).status).toBe(404)
  })
})
