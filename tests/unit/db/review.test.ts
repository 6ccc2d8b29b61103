import { afterAll, describe, expect, it } from 'vitest'
import type { Store } from '../../../core'
import type { NewReviewItem, NewReviewQueue } from '../../../core/review-rows'
import { stopStores, storeFactories } from '../../support/stores'

afterAll(() => stopStores())

const queue: NewReviewQueue = {
  name: 'helpfulness', rubric: { labels: ['pass', 'fail'], score: true, comment: true }, instructions: 'Is the answer helpful?',
  reviewersPerItem: 2, leaseMinutes: 10, showJudge: false,
}

const item = (n: number): NewReviewItem => ({
  source: { kind: 'dataset_run_case', dataset_run_id: 'dr1', case_id: `c${n}`, repeat: 1 },
  input: { question: `q${n}` }, output: `answer ${n}`, context: null,
  judge: { verdict: n % 2 ? 'fail' : 'pass', score: 0.5, confidence: null, reason: null, fingerprint: 'fp1' },
})

const MINUTE = 60_000

describe.each(storeFactories)('review storage ($name)', (factory) => {
  let store: Store

  it('keeps queues and their items in order, each source once', async () => {
    store = await factory.open()
    const created = await store.review.createQueue(queue)
    expect(created).toMatchObject({ ...queue, id: expect.any(String) })
    expect(await store.review.getQueue(created.id)).toEqual(created)
    expect(await store.review.listQueues()).toEqual([created])
    expect(await store.review.addItems(created.id, [item(1), item(2), item(1)])).toEqual({ added: 2 })
    expect(await store.review.addItems(created.id, [item(2), item(3), { ...item(4), source: { kind: 'online', rule_id: 'r', trace_id: 't', span_id: 's' } }])).toEqual({ added: 2 })
    const items = await store.review.items(created.id)
    expect(items.map(i => [i.position, i.output])).toEqual([[1, 'answer 1'], [2, 'answer 2'], [3, 'answer 3'], [4, 'answer 4']])
    expect(items[0]).toMatchObject({ input: { question: 'q1' }, context: null, judge: { verdict: 'fail', fingerprint: 'fp1' } })
    expect(await store.review.getItem(items[3]!.id)).toMatchObject({ source: { kind: 'online', span_id: 's' } })
    expect(await store.review.addItems('nope', [item(1)])).toBeNull()
    expect(await store.review.deleteQueue(created.id)).toBe(true)
    expect(await store.review.deleteQueue(created.id)).toBe(false)
    expect(await store.review.getItem(items[0]!.id)).toBeNull()
    await store.close()
  })

  it('hands each item to as many reviewers as the queue asks, never one they labelled or skipped; a lease that expires frees the item', async () => {
    store = await factory.open()
    const { id } = await store.review.createQueue(queue)
    await store.review.addItems(id, [item(1), item(2)])
    const [first, second] = await store.review.items(id)
    const t0 = 1_000_000
    expect((await store.review.next(id, 'ana', t0))?.id).toBe(first!.id)
    // Asked again, a reviewer gets the item they hold.
    expect((await store.review.next(id, 'ana', t0 + 1))?.id).toBe(first!.id)
    expect((await store.review.next(id, 'bo', t0))?.id).toBe(first!.id)
    // Two reviewers hold item 1: the third gets item 2.
    expect((await store.review.next(id, 'cy', t0))?.id).toBe(second!.id)
    await store.review.label({ itemId: first!.id, reviewer: 'ana', label: 'pass', score: 0.9, comment: 'fine' })
    expect((await store.review.next(id, 'ana', t0 + 2))?.id).toBe(second!.id)
    // Item 2 is held by cy and ana; item 1 has ana's label and bo's lease: nothing for dee until a lease ends.
    expect(await store.review.next(id, 'dee', t0 + 3)).toBeNull()
    expect((await store.review.next(id, 'dee', t0 + 11 * MINUTE))?.id).toBe(first!.id)
    expect(await store.review.skip(second!.id, 'bo')).toBe(true)
    expect(await store.review.skip('nope', 'bo')).toBe(false)
    await store.review.label({ itemId: first!.id, reviewer: 'dee', label: 'fail', score: null, comment: null })
    // bo skipped item 2 and item 1 has its two labels.
    expect(await store.review.next(id, 'bo', t0 + 12 * MINUTE)).toBeNull()
    expect(await store.review.next('nope', 'bo', t0)).toBeNull()
    await store.close()
  })

  it('hands reviewers asking at once different items when each item wants one reviewer', async () => {
    store = await factory.open()
    const { id } = await store.review.createQueue({ ...queue, reviewersPerItem: 1 })
    await store.review.addItems(id, Array.from({ length: 8 }, (_, n) => item(n)))
    const reviewers = ['a', 'b', 'c', 'd', 'e', 'f']
    const handed = await Promise.all(reviewers.map(reviewer => store.review.next(id, reviewer, 5_000)))
    expect(new Set(handed.map(h => h?.position)).size).toBe(reviewers.length)
    await store.close()
  })

  it('keeps one label per reviewer and item, the last given, and counts progress', async () => {
    store = await factory.open()
    const { id } = await store.review.createQueue(queue)
    await store.review.addItems(id, [item(1), item(2), item(3)])
    const [a, b] = await store.review.items(id)
    const first = await store.review.label({ itemId: a!.id, reviewer: 'ana', label: 'pass', score: null, comment: null })
    expect(first).toMatchObject({ itemId: a!.id, queueId: id, reviewer: 'ana', label: 'pass' })
    const again = await store.review.label({ itemId: a!.id, reviewer: 'ana', label: 'fail', score: 0.2, comment: 'wrong unit' })
    expect(again).toMatchObject({ label: 'fail', score: 0.2, comment: 'wrong unit', createdAt: first!.createdAt })
    await store.review.label({ itemId: a!.id, reviewer: 'bo', label: 'fail', score: null, comment: null })
    await store.review.label({ itemId: b!.id, reviewer: 'bo', label: 'pass', score: null, comment: null })
    expect(await store.review.label({ itemId: 'nope', reviewer: 'bo', label: 'pass', score: null, comment: null })).toBeNull()
    expect((await store.review.labels(id)).map(l => [l.itemId, l.reviewer, l.label]).sort()).toEqual([[a!.id, 'ana', 'fail'], [a!.id, 'bo', 'fail'], [b!.id, 'bo', 'pass']].sort())
    expect(await store.review.progress(id)).toEqual({ items: 3, complete: 1, byReviewer: { ana: 1, bo: 2 } })
    await store.close()
  })
})
