/**
 * The address policy on real calls: what is refused is refused before any socket connects to it
 * (IP literals before a socket even exists), and what is allowed reaches the loopback servers here.
 */
import type { LookupAddress } from 'node:dns'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ResolveHost } from '../../../engine/http/address-policy'
import { httpCall } from '../../../engine/http/request'
import { JudgeflowError } from '../../../engine/errors'
import { type Loopback, loopbackServer, offMachineAttempts, socketsDuring } from './loopback'

let target: Loopback

beforeAll(async () => {
  target = await loopbackServer((req, res) => {
    if (req.url === '/to-private') {
      res.writeHead(302, { location: 'http://10.1.2.3/steal' }).end()
      return
    }
    if (req.url === '/to-metadata-name') {
      res.writeHead(307, { location: 'http://metadata.test/latest' }).end()
      return
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ host: req.headers.host, path: req.url }))
  })
})
afterAll(() => target.close())
afterEach(() => {
  expect(offMachineAttempts.splice(0)).toEqual([])
})

const guarded = { guard: true }

function refusal(error: unknown): JudgeflowError {
  expect(error).toBeInstanceOf(JudgeflowError)
  expect((error as JudgeflowError).code).toBe('HTTP_REFUSED')
  return error as JudgeflowError
}

/** A resolver answering from a table, counting its calls; names it does not know fail as DNS would. */
function resolverOf(table: Record<string, LookupAddress[]>): ResolveHost & { calls: string[] } {
  const calls: string[] = []
  const resolve = async (hostname: string) => {
    calls.push(hostname)
    const found = table[hostname]
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    return found
  }
  return Object.assign(resolve, { calls })
}

describe('refused before any socket, guard on', () => {
  it.each([
    ['http://10.0.0.1/', 'a private address'],
    ['http://169.254.169.254/latest/meta-data/', 'a link-local address'],
    ['http://[::ffff:127.0.0.1]/', 'a loopback address'],
    ['http://2130706433/', 'a loopback address'],
    ['http://0x7f.1/', 'a loopback address'],
    ['http://[::1]:9/', 'a loopback address'],
  ])('%s: no socket is created', async (url, kind) => {
    const { sockets, error } = await socketsDuring(() => httpCall({ url, policy: guarded }))
    expect(refusal(error).message).toContain(kind)
    expect(sockets).toEqual([])
  })

  it('the loopback test server itself, unlisted: no socket', async () => {
    const { sockets, error } = await socketsDuring(() => httpCall({ url: `${target.url}/x`, policy: guarded }))
    expect(refusal(error).message).toMatch(/127\.0\.0\.1 is a loopback address; the server calls only public addresses unless the host or the address is listed in JUDGEFLOW_HTTP_ALLOW/)
    expect(sockets).toEqual([])
    expect(target.hits.filter(hit => hit.url === '/x')).toEqual([])
  })

  it('localhost, resolved by the system to loopback: refused, no connection attempted', async () => {
    const { sockets, error } = await socketsDuring(() => httpCall({ url: `http://localhost:${target.port}/local`, policy: guarded }))
    expect(refusal(error).message).toMatch(/^GET http:\/\/localhost:\d+\/local is refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address/)
    expect(sockets.flatMap(s => s.attempts)).toEqual([])
    expect(target.hits.filter(hit => hit.url === '/local')).toEqual([])
  })

  it('a name resolving to a private address: refused, no connection attempted', async () => {
    const resolve = resolverOf({ 'service.test': [{ address: '10.0.0.7', family: 4 }] })
    const { sockets, error } = await socketsDuring(() => httpCall({ url: 'http://service.test/', policy: guarded, resolve }))
    expect(refusal(error).message).toContain('service.test resolves to 10.0.0.7, a private address')
    expect(resolve.calls).toEqual(['service.test'])
    expect(sockets.flatMap(s => s.attempts)).toEqual([])
  })

  it('a name with a public and a private address: refused for the private one, no connection attempted', async () => {
    const resolve = resolverOf({ 'mixed.test': [{ address: '93.184.216.34', family: 4 }, { address: 'fd00::5', family: 6 }] })
    const { sockets, error } = await socketsDuring(() => httpCall({ url: 'https://mixed.test/', policy: guarded, resolve }))
    expect(refusal(error).message).toContain('mixed.test resolves to fd00::5, a private (unique local) address')
    expect(sockets.flatMap(s => s.attempts)).toEqual([])
  })

  it('a name not in the allow list: refused before it is even resolved', async () => {
    const resolve = resolverOf({ 'other.test': [{ address: '127.0.0.1', family: 4 }] })
    const { sockets, error } = await socketsDuring(() => httpCall({ url: `http://other.test:${target.port}/`, policy: { guard: true, allow: ['api.example.com'] }, resolve }))
    expect(refusal(error).message).toContain('other.test is not in JUDGEFLOW_HTTP_ALLOW (api.example.com)')
    expect(resolve.calls).toEqual([])
    expect(sockets).toEqual([])
  })

  it('a listed server redirecting to a private address: the redirect is refused before any socket to it', async () => {
    const { sockets, error } = await socketsDuring(() => httpCall({ url: `${target.url}/to-private`, policy: { guard: true, allow: ['127.0.0.1'] } }))
    expect(refusal(error).message).toBe('GET http://10.1.2.3/steal is refused: 10.1.2.3 is not in JUDGEFLOW_HTTP_ALLOW (127.0.0.1), the hosts the server may call.')
    expect(sockets.map(s => s.attempts)).toEqual([[`127.0.0.1:${target.port}`]])
  })

  it('a redirect to a name that resolves to link-local: refused, no connection to it attempted', async () => {
    const resolve = resolverOf({ 'sut.test': [{ address: '127.0.0.1', family: 4 }], 'metadata.test': [{ address: '169.254.169.254', family: 4 }] })
    const { sockets, error } = await socketsDuring(() => httpCall({ url: `http://sut.test:${target.port}/to-metadata-name`, method: 'POST', body: { a: 1 }, policy: { guard: true, allow: ['sut.test', '*.example.com'] }, resolve }))
    expect(refusal(error).message).toContain('metadata.test is not in JUDGEFLOW_HTTP_ALLOW')
    expect(sockets.flatMap(s => s.attempts)).toEqual([`127.0.0.1:${target.port}`])
  })
})

describe('allowed calls', () => {
  it('reaches a loopback server listed by address', async () => {
    const result = await httpCall({ url: `${target.url}/ok`, policy: { guard: true, allow: ['127.0.0.1'] } })
    expect(result.status).toBe(200)
    expect(result.json).toEqual({ host: `127.0.0.1:${target.port}`, path: '/ok' })
  })

  it('reaches localhost when it is listed by name', async () => {
    const result = await httpCall({ url: `http://localhost:${target.port}/by-name`, policy: { guard: true, allow: ['localhost'] } })
    expect(result.json).toEqual({ host: `localhost:${target.port}`, path: '/by-name' })
  })

  it('connects to the address the policy checked, resolving the name once: a name only the test resolver knows', async () => {
    const resolve = resolverOf({ 'sut.test': [{ address: '127.0.0.1', family: 4 }] })
    const { sockets, result } = await socketsDuring(() => httpCall({ url: `http://sut.test:${target.port}/resolved`, policy: { guard: true, allow: ['127.0.0.0/8'] }, resolve }))
    expect(result?.json).toEqual({ host: `sut.test:${target.port}`, path: '/resolved' })
    expect(resolve.calls).toEqual(['sut.test'])
    expect(sockets.map(s => s.attempts)).toEqual([[`127.0.0.1:${target.port}`]])
  })

  it('with the guard off (the CLI, the library) reaches loopback freely, by address or by name', async () => {
    for (const url of [`${target.url}/cli`, `http://localhost:${target.port}/cli`, `http://2130706433:${target.port}/cli`]) {
      const result = await httpCall({ url, policy: { guard: false } })
      expect(result.status, url).toBe(200)
    }
    const ignored = await httpCall({ url: `${target.url}/cli`, policy: { guard: false, allow: ['api.example.com'] } })
    expect(ignored.status).toBe(200)
  })

  it('with the guard off still refuses credentials in the URL and other schemes, before any socket', async () => {
    const withCredentials = await socketsDuring(() => httpCall({ url: `http://user:hunter2@127.0.0.1:${target.port}/`, policy: { guard: false } }))
    const message = refusal(withCredentials.error).message
    expect(message).toContain('may not carry credentials')
    expect(message).not.toContain('hunter2')
    expect(withCredentials.sockets).toEqual([])
    const file = await socketsDuring(() => httpCall({ url: 'file:///etc/passwd', policy: { guard: false } }))
    expect(refusal(file.error).message).toContain('only http and https URLs can be called, not file')
    expect(file.sockets).toEqual([])
  })
})
