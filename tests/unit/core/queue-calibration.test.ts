import { afterAll, describe, expect, it } from 'vitest'
import type { Store } from '../../../core'
import { anyCalibrationOf, calibrationOf, calibrationProblem, stepJudgeFingerprint } from '../../../core/calibration'
import type { NewReviewItem } from '../../../core/review-rows'
import type { JudgeFingerprint } from '../../../engine/evaluator/fingerprint'
import { stopStores, storeFactories } from '../../support/stores'

afterAll(() => stopStores())

/** A rubric judge; `strictA` moves its A band (its rubric changes, and so its fingerprint). */
const judgeConfig = (strictA = false) => ({
  evaluation_type: 'rubric', model: 'openai:gpt-4o-mini', pass_threshold: 0.5, criteria: [{ name: 'helpful', description: 'Helps the reader' }],
  rubric: { grades: [{ grade: 'A', min_score: strictA ? 0.95 : 0.85 }, { grade: 'C', min_score: 0.5 }, { grade: 'F', min_score: 0 }] },
})
const fingerprintOf = (strictA = false) => stepJudgeFingerprint(judgeConfig(strictA), { defaultJudge: 'openai:gpt-4o-mini' })

/**
 * Item n: the judge's verdict, and two reviewers' labels. Items 1–5 have a consensus (item 5 against
 * the judge), item 6 ties, item 7 was judged by another judge. By hand, over items 1–5: p_o = 4/5;
 * the judge says pass 3/5, people 2/5: p_e = 0.6·0.4 + 0.4·0.6 = 0.48; κ = 0.32 / 0.52 = 0.6154.
 */
const ITEMS: Array<[verdict: string, ana: string, bo: string, other?: true]> = [
  ['pass', 'pass', 'pass'], ['pass', 'pass', 'pass'], ['fail', 'fail', 'fail'], ['fail', 'fail', 'fail'],
  ['pass', 'fail', 'fail'], ['fail', 'pass', 'fail'], ['pass', 'pass', 'pass', true],
]

async function labelledQueue(store: Store, judge: JudgeFingerprint, name = 'helpfulness') {
  const queue = await store.review.createQueue({ name, rubric: { labels: ['pass', 'fail'], score: false, comment: true }, instructions: null, reviewersPerItem: 2, leaseMinutes: 30, showJudge: false })
  const items: NewReviewItem[] = ITEMS.map(([verdict, , , other], n) => ({
    source: { kind: 'dataset_run_case', dataset_run_id: 'dr1', case_id: `c${n + 1}`, repeat: 1 }, input: { question: `q${n + 1}` }, output: `a${n + 1}`, context: null,
    judge: { verdict, score: null, confidence: null, reason: null, fingerprint: other ? 'another-judge' : judge.fingerprint, fingerprint_parts: other ? null : judge.parts },
  }))
  await store.review.addItems(queue.id, items)
  const stored = await store.review.items(queue.id)
  for (const [n, [, ana, bo]] of ITEMS.entries()) {
    await store.review.label({ itemId: stored[n]!.id, reviewer: 'ana', label: ana, score: null, comment: null })
    await store.review.label({ itemId: stored[n]!.id, reviewer: 'bo', label: bo, score: null, comment: null })
  }
  return queue
}

describe.each(storeFactories)('a review queue\'s calibration ($name)', (factory) => {
  it('holds the judge to people\'s consensus on the items it judged, under its fingerprint; another judge\'s items left out and counted', async () => {
    const store = await factory.open()
    const judge = await fingerprintOf()
    const queue = await labelledQueue(store, judge)
    const byName = await calibrationOf(store, judge, 'helpfulness')
    expect(byName).toMatchObject({
      status: 'calibrated', fingerprint: judge.fingerprint, kappa: 0.6154, labelled: 5,
      queue: { id: queue.id, name: 'helpfulness', items_hash: expect.stringMatching(/^[0-9a-f]{16}$/), left_out: 1 },
      confusion: { pass: { pass: 2 }, fail: { fail: 2, pass: 1 } },
    })
    expect(byName.message).toMatch(/^calibrated: κ 0\.62 .*on review queue helpfulness \(5 items\), 1 judged by another judge left out, too few cases to tell: 5 labelled, 30 needed/)
    expect(await calibrationOf(store, judge, queue.id)).toEqual(byName)
    // The editor's status finds it with no dataset to name.
    expect(await anyCalibrationOf(store, judge)).toEqual(byName)
    expect(calibrationProblem(byName, 0.6)).toBeNull()
    expect(calibrationProblem(byName, 0.7)).toMatch(/^the judge's κ 0\.62 .* on review queue helpfulness is below the 0\.7 required$/)

    // One more item agreed on changes the item set, and its hash.
    const [, , , , , tied] = await store.review.items(queue.id)
    await store.review.label({ itemId: tied!.id, reviewer: 'bo', label: 'pass', score: null, comment: null })
    const grown = await calibrationOf(store, judge, 'helpfulness')
    expect(grown).toMatchObject({ status: 'calibrated', labelled: 6 })
    expect(grown.queue!.items_hash).not.toBe(byName.queue!.items_hash)
    await store.close()
  })

  it('is stale once the judge changes, saying which part; a dataset of the same name is the one named', async () => {
    const store = await factory.open()
    await labelledQueue(store, await fingerprintOf())
    const edited = await fingerprintOf(true)
    const stale = await calibrationOf(store, edited, 'helpfulness')
    expect(stale).toMatchObject({ status: 'stale', changed: ['rubric'], message: 'stale: the rubric changed since the items of review queue helpfulness were judged' })
    expect(calibrationProblem(stale, 0.5)).toBe('the judge is stale: the rubric changed since the items of review queue helpfulness were judged')
    expect(await anyCalibrationOf(store, edited)).toMatchObject({ status: 'stale', queue: { name: 'helpfulness' } })
    expect(await calibrationOf(store, edited, 'nothing')).toMatchObject({ status: 'not_calibrated', message: 'not calibrated: there is no dataset or review queue "nothing"' })

    await store.datasets.create('helpfulness', [{ id: 'l1', input: {}, expected: { verdict: 'pass' } }])
    expect(await calibrationOf(store, await fingerprintOf(), 'helpfulness')).toMatchObject({ status: 'not_calibrated', message: 'not calibrated: no finished run of helpfulness with labels has been judged by this judge' })
    await store.close()
  })
})
