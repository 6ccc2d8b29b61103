import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createJudgeflow, loadConfig, type Judgeflow } from '../../../core'
import { stepJudgeFingerprint } from '../../../core/calibration'
import type { DatasetReport } from '../../../engine/datasets'
import { apiRoutes, type ApiAnswer } from '../../support/api-routes'
import { stopStores, storeFactories } from '../../support/stores'

/**
 * A review queue's labels through the API: two reviewers label a dataset run's judged cases, the
 * judge's κ against their consensus is its calibration (the evaluator form's status, and
 * require_calibration on POST /api/dataset-runs), stale once the judge changes; the consensus
 * written as a new dataset version.
 */
const served = vi.hoisted(() => ({ app: undefined as unknown }))
vi.mock('../../../server/utils/context', () => ({ useJudgeflow: () => served.app }))

afterAll(() => stopStores())

const json = (method: string, body: unknown): RequestInit => ({ method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
const judge = { evaluation_type: 'criteria', model: 'local:heuristic', pass_threshold: 0.5, criteria: [{ name: 'helpful', description: 'Helps the reader', weight: 1 }] }
/** The judge's verdict on a1–a4, and two reviewers' labels: a4 ties, so three items are compared, all agreed with the judge (κ 1). */
const VERDICTS = ['pass', 'pass', 'fail', 'fail']
const LABELS = { ana: ['pass', 'pass', 'fail', 'fail'], bo: ['pass', 'pass', 'fail', 'pass'] }

let call: Awaited<ReturnType<typeof apiRoutes>>
beforeAll(async () => {
  call = await apiRoutes([
    ['post', '/api/queues', 'queues/index.post.ts'],
    ['post', '/api/queues/:id/labels', 'queues/[id]/labels.post.ts'],
    ['get', '/api/queues/:id/agreement', 'queues/[id]/agreement.get.ts'],
    ['post', '/api/queues/:id/export', 'queues/[id]/export.post.ts'],
    ['post', '/api/calibration', 'calibration.post.ts'],
    ['post', '/api/dataset-runs', 'dataset-runs/index.post.ts'],
  ])
})

/** A dataset run of `answers` judged by `judge`, a queue of its cases labelled by ana and bo. */
async function labelledQueue(app: Judgeflow) {
  const options = { defaultJudge: app.providers.defaultJudgeModel(), configDir: app.config.evaluation.configDir, metrics: app.metrics }
  const fingerprint = await stepJudgeFingerprint(judge, options)
  const cases = VERDICTS.map((_, n) => ({ id: `a${n + 1}`, input: { content: `answer ${n + 1}` } }))
  const dataset = await app.store.datasets.create('answers', cases)
  const run = await app.store.datasets.createRun({ datasetId: dataset.id, datasetVersion: 1, target: { evaluator: true }, options: {} })
  for (const [n, verdict] of VERDICTS.entries()) {
    const result = { case_id: `a${n + 1}`, repeat: 1, status: 'succeeded', verdict, output: `answer ${n + 1}`, judge_fingerprint: fingerprint.fingerprint, judge_fingerprint_parts: fingerprint.parts }
    await app.store.datasets.saveRunCase({ datasetRunId: run.id, caseId: `a${n + 1}`, repeat: 1, status: 'succeeded', runId: null, result })
  }
  const queue = (await call('/api/queues', json('POST', { name: 'answers-review', reviewers_per_item: 2, items: { from: 'dataset_run', dataset_run_id: run.id } }))).body!
  const items = await app.store.review.items(queue.id as string)
  for (const [reviewer, labels] of Object.entries(LABELS)) {
    for (const [n, label] of labels.entries()) {
      expect((await call(`/api/queues/${queue.id}/labels`, json('POST', { item_id: items[n]!.id, reviewer, label }))).status).toBe(201)
    }
  }
  return { queueId: queue.id as string, datasetId: dataset.id }
}

describe.each(storeFactories)('a review queue\'s calibration and labels through the API ($name)', (factory) => {
  it('calibrates the judge that judged the items; require_calibration passes with it, and refuses the judge once its threshold changes', async () => {
    const app = createJudgeflow(loadConfig({}), { store: await factory.open() })
    served.app = app
    try {
      const { queueId } = await labelledQueue(app)
      const agreement = (await call(`/api/queues/${queueId}/agreement`)).body as { judge: { items_hash: string, kappa: number, compared: number } }
      expect(agreement.judge).toMatchObject({ kappa: 1, compared: 3 })

      const status = await call('/api/calibration', json('POST', { config: judge }))
      expect(status.body).toMatchObject({
        status: 'calibrated', kappa: 1, labelled: 3, queue: { id: queueId, name: 'answers-review', items_hash: agreement.judge.items_hash, left_out: 0 },
        confusion: { pass: { pass: 2 }, fail: { fail: 1 } },
      })
      expect(status.body!.message).toMatch(/^calibrated: κ 1\.00 .*on review queue answers-review \(3 items\)/)

      const start = (config: unknown) => call('/api/dataset-runs', json('POST', { dataset: 'answers', target: { evaluator: config }, require_calibration: { dataset: 'answers-review', min_kappa: 0.6 } }))
      const started = await start(judge)
      expect(started.status).toBe(202)
      await app.datasets.whenDone(started.body!.id as string)
      const report = (await app.store.datasets.getRun(started.body!.id as string))!.report as unknown as DatasetReport
      expect(report.calibration).toMatchObject({ queue: { id: queueId, name: 'answers-review', items_hash: agreement.judge.items_hash }, kappa: 1, labelled: 3, min_kappa: 0.6 })

      const refused = await start({ ...judge, pass_threshold: 0.7 })
      expect(refused).toMatchObject({ status: 400, body: { message: 'require_calibration: the judge is stale: the threshold changed since the items of review queue answers-review were judged' } })
      expect((await call('/api/calibration', json('POST', { config: { ...judge, pass_threshold: 0.7 } }))).body).toMatchObject({ status: 'stale', changed: ['threshold'] })
    }
    finally {
      await app.close(0)
    }
  })

  it('writes the consensus into a dataset as a new version, or a new dataset; a body without one is refused naming the field', async () => {
    const app = createJudgeflow(loadConfig({}), { store: await factory.open() })
    served.app = app
    try {
      const { queueId, datasetId } = await labelledQueue(app)
      const exported = await call(`/api/queues/${queueId}/export`, json('POST', { dataset: 'answers' }))
      expect(exported).toMatchObject({ status: 201, body: { queue_id: queueId, dataset: { id: datasetId, name: 'answers', version: 2 }, written: 3, left_out: 0 } })
      const cases = (await app.store.datasets.get(datasetId))!.cases as Array<{ id: string, expected?: unknown }>
      // a4 tied: it stays as it was, without an expected verdict.
      expect(cases.map(c => [c.id, c.expected ?? null])).toEqual([['a1', { verdict: 'pass' }], ['a2', { verdict: 'pass' }], ['a3', { verdict: 'fail' }], ['a4', null]])

      const fresh = await call(`/api/queues/${queueId}/export`, json('POST', { dataset: 'answers-labels' }))
      expect(fresh.body).toMatchObject({ dataset: { name: 'answers-labels', version: 1 }, written: 3 })
      const created = (await app.store.datasets.findByName('answers-labels'))!
      expect((await app.store.datasets.get(created.id))!.cases).toEqual([
        { id: 'a1', input: { content: 'answer 1' }, expected: { verdict: 'pass' }, output: 'answer 1' },
        { id: 'a2', input: { content: 'answer 2' }, expected: { verdict: 'pass' }, output: 'answer 2' },
        { id: 'a3', input: { content: 'answer 3' }, expected: { verdict: 'fail' }, output: 'answer 3' },
      ])
      const bare: ApiAnswer = await call(`/api/queues/${queueId}/export`, json('POST', {}))
      expect(bare.status).toBe(400)
      expect(JSON.stringify(bare.body)).toContain('dataset')
      expect((await call('/api/queues/nope/export', json('POST', { dataset: 'x' }))).status).toBe(404)
    }
    finally {
      await app.close(0)
    }
  })
})
