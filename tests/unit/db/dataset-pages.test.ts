import { afterAll, describe, expect, it } from 'vitest'
import type { Store } from '../../../core'
import { storeFactories, stopStores } from '../../support/stores'

afterAll(stopStores)

const page = (offset: number, limit: number, maxCharacters = 1_000_000, version?: number) => ({ offset, limit, maxCharacters, ...(version ? { version } : {}) })

describe.each(storeFactories)('a page of a dataset version\'s cases ($name)', (stores) => {
  let store: Store

  it('reads the cases from an offset, in order, with the version\'s count, for the current version or an earlier one', async () => {
    store = await stores.open()
    const cases = Array.from({ length: 250 }, (_, i) => ({ id: `q${i}`, input: { question: `question ${i} — ünïcödé 🙂`, n: i, nested: { list: [i, null, true] } }, ...(i % 2 ? { tags: ['odd'] } : {}) }))
    const dataset = await store.datasets.create('paged', cases)
    await store.datasets.update(dataset.id, { cases: cases.slice(0, 3) })

    const first = (await store.datasets.casesPage(dataset.id, page(0, 100, 1_000_000, 1)))!
    expect(first).toMatchObject({ id: dataset.id, name: 'paged', currentVersion: 2, caseCount: 3, version: 1, total: 250 })
    expect(first.cases).toEqual(cases.slice(0, 100))
    expect((await store.datasets.casesPage(dataset.id, page(200, 100, 1_000_000, 1)))!.cases).toEqual(cases.slice(200))
    expect((await store.datasets.casesPage(dataset.id, page(250, 100, 1_000_000, 1)))!.cases).toEqual([])
    expect((await store.datasets.casesPage(dataset.id, page(10_000, 100, 1_000_000, 1)))!.cases).toEqual([])
    // The current version unless one is named.
    expect(await store.datasets.casesPage(dataset.id, page(1, 100))).toMatchObject({ version: 2, total: 3, cases: cases.slice(1, 3) })
    await store.close()
  })

  it('stops a page once its cases hold the characters asked for, its first case always in', async () => {
    store = await stores.open()
    const cases = Array.from({ length: 10 }, (_, i) => ({ id: `c${i}`, input: { text: 'x'.repeat(1_000) } }))
    const size = JSON.stringify(cases[0]).length
    const dataset = await store.datasets.create('sized', cases)
    expect((await store.datasets.casesPage(dataset.id, page(0, 10, size * 3)))!.cases).toEqual(cases.slice(0, 3))
    expect((await store.datasets.casesPage(dataset.id, page(0, 10, size * 3 - 1)))!.cases).toEqual(cases.slice(0, 2))
    expect((await store.datasets.casesPage(dataset.id, page(4, 10, 10)))!.cases).toEqual([cases[4]])
    expect((await store.datasets.casesPage(dataset.id, page(8, 10, size * 100)))!.cases).toEqual(cases.slice(8))
    await store.close()
  })

  it('is null for a dataset or a version that does not exist', async () => {
    store = await stores.open()
    const dataset = await store.datasets.create('one', [{ id: 'a', input: {} }])
    expect(await store.datasets.casesPage('nope', page(0, 10))).toBeNull()
    expect(await store.datasets.casesPage(dataset.id, page(0, 10, 1_000, 2))).toBeNull()
    await store.close()
  })
})
