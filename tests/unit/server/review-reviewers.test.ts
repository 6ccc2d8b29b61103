import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { toNodeListener } from 'h3'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { loadConfig, type Store } from '../../../core'
import { createSqliteStore, openDatabase } from '../../../db'
import { apiApp } from '../../support/api-routes'
import { issueSession } from '../../../server/utils/session'

/**
 * Reviewers are people (DESIGN.md, "Human review"): behind the access middleware, as the built server
 * runs, each person of JUDGEFLOW_USERS signs in by name and labels as that name only; with the bearer
 * token, or on this machine without one, the body names the reviewer, one of the list when there is one.
 */
const served = vi.hoisted(() => ({ config: undefined as ReturnType<typeof loadConfig> | undefined, app: undefined as { store: Store } | undefined }))
vi.mock('../../../server/utils/config', () => ({ judgeflowConfig: () => served.config }))
vi.mock('../../../server/utils/context', () => ({ useJudgeflow: () => served.app }))

const TOKEN = 'a-long-test-token-0123456789abcdef'
const USERS = 'Ana Lima,Bo'
const LISTED = '"Ana Lima", "Bo" (JUDGEFLOW_USERS)'
let server: Server
let base: string
let store: Store
let queueId: string

beforeAll(async () => {
  store = createSqliteStore(openDatabase(':memory:'))
  served.app = { store }
  const app = await apiApp([
    ['post', '/api/login', 'login.post.ts'],
    ['get', '/api/session', 'session.get.ts'],
    ['get', '/api/queues/:id', 'queues/[id].get.ts'],
    ['post', '/api/queues/:id/next', 'queues/[id]/next.post.ts'],
    ['post', '/api/queues/:id/skip', 'queues/[id]/skip.post.ts'],
    ['post', '/api/queues/:id/labels', 'queues/[id]/labels.post.ts'],
    ['post', '/api/queues/:id/items/:item/release', 'queues/[id]/items/[item]/release.post.ts'],
  ], { middleware: ['00-access.ts', 'body-limit.ts'] })
  server = createServer(toNodeListener(app))
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise(resolve => server.close(resolve))
})
beforeEach(async () => {
  served.config = loadConfig({ JUDGEFLOW_TOKEN: TOKEN, JUDGEFLOW_USERS: USERS })
  const queue = await store.review.createQueue({ name: 'people', rubric: { labels: ['pass', 'fail'], score: false, comment: true }, instructions: null, reviewersPerItem: 2, leaseMinutes: 30, showJudge: false })
  queueId = queue.id
  await store.review.addItems(queue.id, ['r1', 'r2', 'r3'].map(id => ({ source: { kind: 'run' as const, run_id: id }, input: `asked ${id}`, output: `said ${id}`, context: null, judge: null })))
})

type Answer = { status: number, body: Record<string, any> | null, cookie: string | null }
async function call(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${base}${path}`, body === undefined
    ? { headers }
    : { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : null, cookie: response.headers.get('set-cookie')?.split(';')[0] ?? null }
}
const problems = (answer: Answer) => answer.body?.data?.problems
const bearer = { authorization: `Bearer ${TOKEN}` }
const as = (cookie: string) => ({ cookie })
async function signIn(user: string): Promise<string> {
  const answer = await call('/api/login', { token: TOKEN, user })
  expect(answer).toMatchObject({ status: 200, body: { signed_in: true, user } })
  return answer.cookie!
}
const next = (headers: Record<string, string>, body: Record<string, unknown> = {}) => call(`/api/queues/${queueId}/next`, body, headers)
const label = (headers: Record<string, string>, body: Record<string, unknown>) => call(`/api/queues/${queueId}/labels`, body, headers)

describe('with JUDGEFLOW_TOKEN and JUDGEFLOW_USERS', () => {
  it('signs in by name: the name is required and must be one of the list; the session reports it', async () => {
    expect((await call('/api/session')).body).toEqual({ token_required: true, signed_in: false, expires_at: null, user: null, users: ['Ana Lima', 'Bo'] })
    expect(problems(await call('/api/login', { token: TOKEN }))).toEqual([{ path: 'user', message: `is required: say who you are, one of ${LISTED}` }])
    const stranger = await call('/api/login', { token: TOKEN, user: 'Cy' })
    expect(stranger).toMatchObject({ status: 400, body: { message: `Invalid body: user: must be one of ${LISTED}` }, cookie: null })
    expect(await call('/api/login', { token: 'wrong', user: 'Bo' })).toMatchObject({ status: 401, cookie: null })
    const ana = await signIn('Ana Lima')
    expect(ana).toMatch(/^judgeflow_session=\d+\.\d+\.QW5hIExpbWE\.[0-9a-f]{64}$/)
    expect((await call('/api/session', undefined, as(ana))).body).toMatchObject({ signed_in: true, user: 'Ana Lima', users: ['Ana Lima', 'Bo'] })
  })

  it('keeps two people\'s labels apart, each blind to the other, and neither labels, leases or skips as the other', async () => {
    const ana = await signIn('Ana Lima')
    const bo = await signIn('Bo')
    const first = (await next(as(ana))).body!.item
    expect(first).toMatchObject({ position: 1, input: 'asked r1' })
    expect(await label(as(ana), { item_id: first.id, label: 'pass', comment: 'fine' })).toMatchObject({ status: 201, body: { reviewer: 'Ana Lima', label: 'pass' } })

    // Ana cannot label as Bo, take Bo's next item, or skip for him: 403, naming the field.
    const asBo = await label(as(ana), { item_id: first.id, reviewer: 'Bo', label: 'fail' })
    expect(asBo).toMatchObject({ status: 403, body: { message: 'reviewer: you are signed in as "Ana Lima" and label as yourself only: leave reviewer out, or send "Ana Lima"' } })
    expect((await next(as(ana), { reviewer: 'Bo' })).status).toBe(403)
    expect((await call(`/api/queues/${queueId}/skip`, { item_id: first.id, reviewer: 'Bo' }, as(ana))).status).toBe(403)
    // Her own name, given, is hers; she gives back only her own lease.
    const second = (await next(as(ana), { reviewer: 'Ana Lima' })).body!.item
    expect(second).toMatchObject({ position: 2 })
    const release = (body: Record<string, unknown>) => call(`/api/queues/${queueId}/items/${second.id}/release`, body, as(ana))
    expect((await release({ reviewer: 'Bo' })).status).toBe(403)
    expect((await release({})).body).toMatchObject({ released: true })

    // Bo is handed the item Ana labelled, without her label, and his label is his.
    const his = (await next(as(bo))).body!
    expect(his.item.id).toBe(first.id)
    expect(JSON.stringify(his)).not.toMatch(/Ana|fine/)
    expect(await label(as(bo), { item_id: first.id, label: 'fail' })).toMatchObject({ status: 201, body: { reviewer: 'Bo', label: 'fail' } })
    expect((await call(`/api/queues/${queueId}/skip`, { item_id: first.id }, as(bo))).status).toBe(204)

    const labels = await store.review.labels(queueId)
    expect(labels.map(l => [l.reviewer, l.label])).toEqual([['Ana Lima', 'pass'], ['Bo', 'fail']])
    expect((await call(`/api/queues/${queueId}`, undefined, as(bo))).body).toMatchObject({ progress: { complete: 1, by_reviewer: { 'Ana Lima': 1, 'Bo': 1 } } })
  })

  it('refuses a cookie whose name was edited, and a session of someone taken off the list', async () => {
    const ana = await signIn('Ana Lima')
    const forged = ana.replace('QW5hIExpbWE', Buffer.from('Bo').toString('base64url'))
    expect(forged).not.toBe(ana)
    expect((await call('/api/session', undefined, as(forged))).body).toMatchObject({ signed_in: false, user: null })
    expect((await next(as(forged))).status).toBe(401)
    expect(await store.review.labels(queueId)).toEqual([])

    served.config = loadConfig({ JUDGEFLOW_TOKEN: TOKEN, JUDGEFLOW_USERS: 'Bo' })
    expect((await call('/api/session', undefined, as(ana))).body).toMatchObject({ signed_in: false, user: null, users: ['Bo'] })
    expect((await next(as(ana))).status).toBe(401)
  })

  it('with the bearer token, or a session of no one by name, the body names the reviewer, one of the list', async () => {
    const nobody = `judgeflow_session=${issueSession(TOKEN, 3_600_000)}`
    for (const headers of [bearer, as(nobody)]) {
      expect(problems(await next(headers))).toEqual([{ path: 'reviewer', message: `is required: one of ${LISTED}` }])
      expect(await next(headers, { reviewer: 'Cy' })).toMatchObject({ status: 400, body: { message: `Invalid body: reviewer: must be one of ${LISTED}` } })
      expect((await next(headers, { reviewer: 'ana lima' })).status).toBe(400)
    }
    const item = (await next(bearer, { reviewer: 'Bo' })).body!.item
    expect(await label(bearer, { item_id: item.id, reviewer: 'Bo', label: 'pass' })).toMatchObject({ status: 201, body: { reviewer: 'Bo' } })
    expect((await label(bearer, { item_id: item.id, reviewer: 'Cy', label: 'pass' })).status).toBe(400)
    expect((await store.review.labels(queueId)).map(l => l.reviewer)).toEqual(['Bo'])
  })
})

describe('on this machine without a token', () => {
  it('with JUDGEFLOW_USERS: the body names the reviewer, one of the list; the session lists the names', async () => {
    served.config = loadConfig({ JUDGEFLOW_USERS: USERS })
    expect((await call('/api/session')).body).toEqual({ token_required: false, signed_in: false, expires_at: null, user: null, users: ['Ana Lima', 'Bo'] })
    expect(problems(await next({}))).toEqual([{ path: 'reviewer', message: `is required: one of ${LISTED}` }])
    expect(problems(await next({}, { reviewer: 'someone' }))).toEqual([{ path: 'reviewer', message: `must be one of ${LISTED}` }])
    expect((await next({}, { reviewer: 'Ana Lima' })).body!.item).toMatchObject({ position: 1 })
  })

  it('without it, a typed name is the reviewer, as before', async () => {
    served.config = loadConfig({})
    expect((await call('/api/session')).body).toMatchObject({ token_required: false, user: null, users: [] })
    expect(problems(await next({}))).toEqual([{ path: 'reviewer', message: 'is required: the name your labels are kept under' }])
    const item = (await next({}, { reviewer: 'whoever' })).body!.item
    expect(await label({}, { item_id: item.id, reviewer: 'whoever', label: 'fail' })).toMatchObject({ status: 201, body: { reviewer: 'whoever' } })
  })
})

describe('with JUDGEFLOW_TOKEN alone', () => {
  it('signs in with the token only (a name is refused), and the body names the reviewer', async () => {
    served.config = loadConfig({ JUDGEFLOW_TOKEN: TOKEN })
    expect(problems(await call('/api/login', { token: TOKEN, user: 'Bo' }))).toEqual([{ path: 'user', message: 'this server lists no people (JUDGEFLOW_USERS): sign in with the token alone' }])
    const { cookie, body } = await call('/api/login', { token: TOKEN })
    expect(body).toMatchObject({ signed_in: true, user: null })
    expect(cookie).toMatch(/^judgeflow_session=\d+\.\d+\.[0-9a-f]{64}$/)
    expect((await call('/api/session', undefined, as(cookie!))).body).toMatchObject({ signed_in: true, user: null, users: [] })
    expect(problems(await next(as(cookie!)))).toEqual([{ path: 'reviewer', message: 'is required: the name your labels are kept under' }])
    expect((await next(as(cookie!), { reviewer: 'anyone' })).body!.item).toMatchObject({ position: 1 })
  })
})
