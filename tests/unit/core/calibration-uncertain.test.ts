import { describe, expect, it } from 'vitest'
import { calibrationOf } from '../../../core/calibration'
import { createSqliteStore, openDatabase } from '../../../db'

/** A store holding one finished run of a labelled dataset, judged by the judge `fp`, with the κ given. */
async function calibratedStore(agreement: { kappa: number, kappa_ci: [number, number], labelled: number }) {
  const store = createSqliteStore(openDatabase(':memory:'))
  const dataset = await store.datasets.create('support-cases', [{ id: 'l1', input: {}, expected: { verdict: 'pass' } }])
  const run = await store.datasets.createRun({ datasetId: dataset.id, datasetVersion: dataset.version, target: { evaluator: {} }, options: {} })
  await store.datasets.updateRun(run.id, { status: 'finished', finishedAt: Date.now(), report: { agreement: { ...agreement, judge_fingerprint: 'fp' } } })
  return store
}
const judge = { fingerprint: 'fp', parts: { models: 'm', prompt: 'p', criteria: 'c', rubric: 'r', weights: 'w', threshold: 't' } }

describe('a calibration whose κ cannot tell', () => {
  it('says why beside its κ, and carries it as `uncertain`', async () => {
    const few = await calibrationOf(await calibratedStore({ kappa: 0.6, kappa_ci: [0, 1], labelled: 10 }), judge, 'support-cases')
    expect(few).toMatchObject({
      status: 'calibrated',
      message: 'calibrated: κ 0.60 [0.00, 1.00] on support-cases v1, too few cases to tell: 10 labelled, 30 needed; the interval is 1.00 wide',
      uncertain: 'too few cases to tell: 10 labelled, 30 needed; the interval is 1.00 wide',
    })
    const tight = await calibrationOf(await calibratedStore({ kappa: 0.71, kappa_ci: [0.58, 0.82], labelled: 120 }), judge, 'support-cases')
    expect(tight.message).toBe('calibrated: κ 0.71 [0.58, 0.82] on support-cases v1')
    expect(tight.uncertain).toBeUndefined()
  })
})
