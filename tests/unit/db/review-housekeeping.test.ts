import { afterAll, describe, expect, it } from 'vitest'
import type { Store } from '../../../core'
import type { NewReviewItem, NewReviewQueue, ReviewRejudgement } from '../../../core/review-rows'
import { stopStores, storeFactories } from '../../support/stores'

afterAll(() => stopStores())

const queue: NewReviewQueue = {
  name: 'helpfulness', rubric: { labels: ['pass', 'fail'], score: false, comment: true }, instructions: null,
  reviewersPerItem: 1, leaseMinutes: 10, showJudge: false,
}

const item = (n: number): NewReviewItem => ({
  source: { kind: 'dataset_run_case', dataset_run_id: 'dr1', case_id: `c${n}`, repeat: 1 },
  input: { question: `q${n}` }, output: `answer ${n}`, context: null,
  judge: { verdict: 'pass', score: 0.9, confidence: null, reason: 'fine', fingerprint: 'fp-old' },
})

const rejudgement = (fingerprint: string, verdict: string, at: number): ReviewRejudgement => ({
  verdict, score: verdict === 'pass' ? 1 : 0, reason: `judged ${verdict}`, fingerprint, fingerprint_parts: { threshold: 'abc12345' }, at,
})

const MINUTE = 60_000

describe.each(storeFactories)('review housekeeping storage ($name)', (factory) => {
  let store: Store

  it('keeps re-judgements beside the verdict the item was added with, one per fingerprint, the newest last', async () => {
    store = await factory.open()
    const { id } = await store.review.createQueue(queue)
    await store.review.addItems(id, [item(1), { ...item(2), judge: null }])
    const [first, second] = await store.review.items(id)
    expect(await store.review.addRejudgement(first!.id, rejudgement('fp-a', 'fail', 1))).toBe(true)
    expect(await store.review.addRejudgement(first!.id, rejudgement('fp-b', 'pass', 2))).toBe(true)
    // The same judge again: its verdict replaces the one it gave, and goes last.
    expect(await store.review.addRejudgement(first!.id, rejudgement('fp-a', 'pass', 3))).toBe(true)
    expect((await store.review.getItem(first!.id))!.judge).toEqual({
      verdict: 'pass', score: 0.9, confidence: null, reason: 'fine', fingerprint: 'fp-old',
      rejudged: [rejudgement('fp-b', 'pass', 2), rejudgement('fp-a', 'pass', 3)],
    })
    // An item added without a judge's verdict keeps none, and gets the re-judgement.
    expect(await store.review.addRejudgement(second!.id, rejudgement('fp-a', 'fail', 4))).toBe(true)
    expect((await store.review.getItem(second!.id))!.judge).toMatchObject({ verdict: null, fingerprint: null, rejudged: [{ verdict: 'fail', fingerprint: 'fp-a' }] })
    expect(await store.review.addRejudgement('nope', rejudgement('fp-a', 'fail', 5))).toBe(false)
    await store.close()
  })

  it('a reviewer gives an item back: another takes it at once; a skipped item is not given back', async () => {
    store = await factory.open()
    const { id } = await store.review.createQueue(queue)
    await store.review.addItems(id, [item(1), item(2)])
    const now = Date.now()
    const taken = await store.review.next(id, 'ana', now)
    expect(taken!.position).toBe(1)
    // One reviewer an item: while Ana holds item 1, Bo is handed item 2.
    expect((await store.review.next(id, 'bo', now))!.position).toBe(2)
    expect(await store.review.release(taken!.id, 'ana')).toBe(true)
    expect((await store.review.next(id, 'cy', now))!.position).toBe(1)
    expect(await store.review.release(taken!.id, 'ana')).toBe(false)
    await store.review.skip(taken!.id, 'dee')
    expect(await store.review.release(taken!.id, 'dee')).toBe(false)
    expect(await store.review.release('nope', 'ana')).toBe(false)
    await store.close()
  })

  it('the prune deletes review leases that ran out and keeps live ones and skipped marks', async () => {
    store = await factory.open()
    const { id } = await store.review.createQueue(queue)
    await store.review.addItems(id, [item(1), item(2), item(3)])
    const now = Date.now()
    const live = await store.review.next(id, 'bo', now)
    // Ana took item 2 twenty minutes ago, for ten.
    const old = await store.review.next(id, 'ana', now - 20 * MINUTE)
    expect([live!.position, old!.position]).toEqual([1, 2])
    await store.review.skip(old!.id, 'cy')
    const pruned = await store.retention.prune({ now })
    expect(pruned.reviewLeases).toBe(1)
    // Bo's lease stands and so does Cy's skip: Cy is handed item 3; item 2 is free for Dee.
    expect((await store.review.next(id, 'cy', now))!.position).toBe(3)
    expect((await store.review.next(id, 'dee', now))!.position).toBe(2)
    await store.close()
  })
})
