import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from '../support/app-server'
import { qualityGate } from '../support/workflows'

let server: AppServer
beforeAll(async () => { server = await startAppServer() })
afterAll(async () => { await server?.stop() })

const named = (name: string) => ({ ...qualityGate(['a'], [true]), name })
const put = (id: string, body: unknown, headers: Record<string, string> = {}) => server.api(`/api/workflows/${id}`, { method: 'PUT', body, headers })

describe('saving over a newer version', () => {
  it('sends the version as ETag; a save with a stale If-Match is refused with 412 and the current version', async () => {
    const { body: created } = await server.api('/api/workflows', { body: named('v1') })
    const id = created.id as string
    const got = await server.api(`/api/workflows/${id}`)
    expect(got.headers.get('etag')).toBe('"1"')

    const mine = await put(id, named('mine'), { 'if-match': '"1"' })
    expect(mine.status).toBe(200)
    expect(mine.headers.get('etag')).toBe('"2"')
    const stale = await put(id, named('theirs, edited from v1'), { 'if-match': got.headers.get('etag')! })
    expect(stale.status).toBe(412)
    expect(stale.body.data).toEqual({ code: 'VERSION_CONFLICT', current_version: 2 })
    expect(stale.body.message).toContain('changed after version 1: it is now at version 2')
    // Weak tags never match (strong comparison); a list matches when it holds the current version; `*` is no condition.
    expect((await put(id, named('weak'), { 'if-match': 'W/"2"' })).status).toBe(412)
    expect((await put(id, named('list'), { 'if-match': '"1", "2"' })).body.version).toBe(3)
    expect((await put(id, named('any'), { 'if-match': '*' })).body.version).toBe(4)
    expect((await server.api(`/api/workflows/${id}?version=5`)).status).toBe(404)
    expect((await server.api(`/api/workflows/${id}?version=2`)).headers.get('etag')).toBe('"2"')
  })

  it('refuses a body whose base_version is stale with 409; base_version is never stored', async () => {
    const { body: created } = await server.api('/api/workflows', { body: named('v1') })
    const id = created.id as string
    expect((await put(id, { ...named('first'), base_version: 1 })).body.version).toBe(2)
    const stale = await put(id, { ...named('second, also from v1'), base_version: 1 })
    expect(stale.status).toBe(409)
    expect(stale.body.data).toEqual({ code: 'VERSION_CONFLICT', current_version: 2 })
    expect(stale.body.message).toBe('This workflow was changed after version 1: it is now at version 2. Load version 2 and make the change again, or send base_version 2 to save over it.')
    expect((await server.api(`/api/workflows/${id}`)).body).toMatchObject({ version: 2, name: 'first' })

    // Overwriting: the same change based on the current version.
    const over = await put(id, { ...named('second, over v2'), base_version: 2 })
    expect(over.body).toMatchObject({ version: 3, name: 'second, over v2' })
    expect(over.body.definition).not.toHaveProperty('base_version')
    expect((await server.api(`/api/workflows/${id}/export`)).body).not.toHaveProperty('base_version')
    expect((await put(id, { ...named('x'), base_version: 'three' })).body.data.problems).toEqual([{ path: 'base_version', message: expect.any(String) }])
  })

  it('without If-Match or base_version, the last write wins as before', async () => {
    const { body: created } = await server.api('/api/workflows', { body: named('v1') })
    const id = created.id as string
    expect((await put(id, named('a'))).body.version).toBe(2)
    expect((await put(id, named('b'))).body.version).toBe(3)
    expect((await server.api(`/api/workflows/${id}`)).body.name).toBe('b')
    expect((await put('no-such-workflow', { ...named('x'), base_version: 1 })).status).toBe(404)
  })
})
