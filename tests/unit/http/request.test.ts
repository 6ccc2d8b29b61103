/** httpCall against real loopback servers: answers, retries, time limit, size limit, expected status, redirects, messages. */
import { gzipSync } from 'node:zlib'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { JudgeflowError } from '../../../engine/errors'
import { MAX_RESPONSE_BYTES, httpCall } from '../../../engine/http/request'
import { type Loopback, loopbackServer, offMachineAttempts } from './loopback'

const cli = { guard: false }
const server = { guard: true, allow: ['127.0.0.1'] }

/** Per path, how many times it was asked for. */
const counts = new Map<string, number>()
let sut: Loopback
let other: Loopback

beforeAll(async () => {
  sut = await loopbackServer((req, res, hit) => {
    const url = new URL(hit.url, 'http://x')
    const n = (counts.get(url.pathname) ?? 0) + 1
    counts.set(url.pathname, n)
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value))
    switch (url.pathname) {
      case '/echo': return json(200, { method: hit.method, body: hit.body, type: hit.headers['content-type'] ?? null }, { 'X-Custom-Thing': 'A' })
      case '/cookies': return res.writeHead(200, [['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2']]).end('ok')
      case '/text': return res.writeHead(200, { 'content-type': 'text/plain' }).end('hello, not json')
      case '/gzip': return res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(JSON.stringify({ zipped: true })))
      case '/429-then-ok': return n === 1 ? json(429, { error: 'slow down' }, { 'retry-after': '1' }) : json(200, { n })
      case '/503-then-ok': return n === 1 ? json(503, { error: 'warming up' }) : json(200, { n })
      case '/always-500': return json(500, { error: 'broken' })
      case '/429-long': return json(429, { error: 'come back later' }, { 'retry-after': '120' })
      case '/429-date': return json(429, { error: 'later' }, { 'retry-after': new Date(Date.now() + 2500).toUTCString() })
      case '/404': return res.writeHead(404, { 'content-type': 'text/plain' }).end(`${'x'.repeat(450)}${'y'.repeat(300)}`)
      case '/hang': return undefined
      case '/stall-body': res.writeHead(200, { 'content-type': 'text/plain' }); res.write('partial'); return undefined
      case '/large-declared': return res.writeHead(200, { 'content-length': String(MAX_RESPONSE_BYTES + 1) }).end(Buffer.alloc(MAX_RESPONSE_BYTES + 1, 97))
      case '/large-chunked': {
        res.writeHead(200, { 'content-type': 'text/plain' })
        for (let i = 0; i < 11; i++) res.write(Buffer.alloc(1024 * 1024, 97))
        return res.end()
      }
      case '/gzip-bomb': return res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(MAX_RESPONSE_BYTES + 1024)))
      case '/see-other': return res.writeHead(303, { location: '/echo' }).end()
      case '/found': return res.writeHead(302, { location: '/echo' }).end()
      case '/temporary': return res.writeHead(307, { location: `${sut.url}/echo` }).end()
      case '/moved-relative': return res.writeHead(301, { location: 'echo?from=moved' }).end()
      case '/chain': {
        const left = Number(url.searchParams.get('left'))
        return left > 0 ? res.writeHead(302, { location: `/chain?left=${left - 1}` }).end() : json(200, { done: true })
      }
      case '/headers': return json(200, hit.headers)
      case '/to-other': return res.writeHead(307, { location: `${other.url}/headers` }).end()
      case '/to-self': return res.writeHead(307, { location: '/headers' }).end()
      case '/secret-500': return json(500, { error: 'no' })
      default: return json(404, { error: 'no such path' })
    }
  })
  other = await loopbackServer((_req, res, hit) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(hit.headers)))
})
afterAll(async () => {
  await sut.close()
  await other.close()
})
afterEach(() => {
  expect(offMachineAttempts.splice(0)).toEqual([])
})

async function failure(call: Promise<unknown>): Promise<JudgeflowError> {
  const error = await call.then(() => undefined, (e: unknown) => e)
  expect(error).toBeInstanceOf(JudgeflowError)
  return error as JudgeflowError
}

describe('answers', () => {
  it('gives the status, every header in lower case, the text, the parsed JSON, the latency and the calls made', async () => {
    const result = await httpCall({ url: `${sut.url}/echo`, policy: server })
    expect(result.status).toBe(200)
    expect(result.headers['x-custom-thing']).toBe('A')
    expect(result.headers['content-type']).toBe('application/json')
    expect(result.json).toEqual({ method: 'GET', body: '', type: null })
    expect(JSON.parse(result.text)).toEqual(result.json)
    expect(result.latency_ms).toBeGreaterThanOrEqual(0)
    expect(result.attempts).toBe(1)
  })

  it('joins repeated headers, and gives null JSON for a body that is not JSON', async () => {
    const cookies = await httpCall({ url: `${sut.url}/cookies`, policy: cli })
    expect(cookies.headers['set-cookie']).toBe('a=1, b=2')
    const text = await httpCall({ url: `${sut.url}/text`, policy: cli })
    expect(text.text).toBe('hello, not json')
    expect(text.json).toBeNull()
  })

  it('sends a value as JSON, and a string as it is with the caller\'s content type', async () => {
    const json = await httpCall({ url: `${sut.url}/echo`, method: 'post', body: { q: 'hi', n: [1, 2] }, policy: cli })
    expect(json.json).toEqual({ method: 'POST', body: '{"q":"hi","n":[1,2]}', type: 'application/json' })
    const text = await httpCall({ url: `${sut.url}/echo`, method: 'PUT', headers: { 'Content-Type': 'text/plain' }, body: 'plain words', policy: cli })
    expect(text.json).toEqual({ method: 'PUT', body: 'plain words', type: 'text/plain' })
  })

  it('decodes a gzip body', async () => {
    const result = await httpCall({ url: `${sut.url}/gzip`, policy: cli })
    expect(result.json).toEqual({ zipped: true })
  })

  it('reads no body for HEAD', async () => {
    const result = await httpCall({ url: `${sut.url}/echo`, method: 'HEAD', policy: cli })
    expect(result.status).toBe(200)
    expect(result.text).toBe('')
    expect(result.json).toBeNull()
  })
})

describe('retries', () => {
  it('after a 429, waits what Retry-After asks (1 s) and calls again', async () => {
    const result = await httpCall({ url: `${sut.url}/429-then-ok`, retries: 2, policy: server })
    expect(result.json).toEqual({ n: 2 })
    expect(result.attempts).toBe(2)
    const hits = sut.hits.filter(hit => hit.url === '/429-then-ok')
    expect(hits).toHaveLength(2)
    expect(hits[1]!.at - hits[0]!.at).toBeGreaterThanOrEqual(900)
  })

  it('after a 503, calls again with backoff', async () => {
    const result = await httpCall({ url: `${sut.url}/503-then-ok`, method: 'POST', body: { a: 1 }, retries: 1, policy: server })
    expect(result.json).toEqual({ n: 2 })
    expect(counts.get('/503-then-ok')).toBe(2)
  })

  it('fails with the last status once the retries are spent', async () => {
    const error = await failure(httpCall({ url: `${sut.url}/always-500`, retries: 2, policy: cli }))
    expect(error.code).toBe('HTTP_FAILED')
    expect(error.message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/always-500 answered 500 Internal Server Error \(expected 2xx\) after 3 calls: \{"error":"broken"\}$/)
    expect(error.details).toEqual({ reason: 'status', status: 500, attempts: 3 })
    expect(counts.get('/always-500')).toBe(3)
  })

  it('makes one call when no retry is asked for', async () => {
    const before = counts.get('/always-500') ?? 0
    await failure(httpCall({ url: `${sut.url}/always-500`, policy: cli }))
    expect(counts.get('/always-500')).toBe(before + 1)
  })

  it('does not retry when Retry-After asks for more than 60 s', async () => {
    const error = await failure(httpCall({ url: `${sut.url}/429-long`, retries: 3, policy: cli }))
    expect(error.message).toContain('answered 429 Too Many Requests')
    expect(error.message).toContain('not retried: its Retry-After asks for 120 s, more than the 60 s a retry waits')
    expect(counts.get('/429-long')).toBe(1)
  })

  it('does not retry when a Retry-After date falls after the time limit', async () => {
    const error = await failure(httpCall({ url: `${sut.url}/429-date`, retries: 3, timeoutMs: 1000, policy: cli }))
    expect(error.message).toMatch(/not retried: the next try, in \d+ ms, would come after the time limit \(1000 ms\)/)
    expect(counts.get('/429-date')).toBe(1)
  })
})

describe('limits', () => {
  it('fails a call that does not answer within its time limit', async () => {
    const error = await failure(httpCall({ url: `${sut.url}/hang?token=abc123`, timeoutMs: 300, policy: cli }))
    expect(error.code).toBe('HTTP_FAILED')
    expect(error.message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/hang\?token=… did not finish within 300 ms, its time limit/)
    expect(error.details).toEqual({ reason: 'timeout', limit: 300 })
  })

  it('holds the time limit while the body is read', async () => {
    const error = await failure(httpCall({ url: `${sut.url}/stall-body`, timeoutMs: 300, policy: cli }))
    expect((error.details as { reason: string }).reason).toBe('timeout')
  })

  it.each(['/large-declared', '/large-chunked', '/gzip-bomb'])('refuses a response over 10 MB (%s), naming the limit', async (path) => {
    const error = await failure(httpCall({ url: `${sut.url}${path}`, policy: cli }))
    expect(error.code).toBe('HTTP_FAILED')
    expect(error.message).toContain(`answered more than ${MAX_RESPONSE_BYTES} bytes, the most a response may hold`)
    expect(error.details).toEqual({ reason: 'too_large', limit: MAX_RESPONSE_BYTES })
  })

  it('takes a smaller size limit', async () => {
    const error = await failure(httpCall({ url: `${sut.url}/404`, expectStatus: 404, maxResponseBytes: 100, policy: cli }))
    expect(error.message).toContain('more than 100 bytes')
  })

  it('stops when its signal aborts', async () => {
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 100)
    const error = await failure(httpCall({ url: `${sut.url}/hang`, signal: controller.signal, policy: cli }))
    expect(error.code).toBe('CANCELLED')
  })
})

describe('expected status', () => {
  it('fails a status not expected, with the status and at most 500 characters of the body', async () => {
    const error = await failure(httpCall({ url: `${sut.url}/404`, policy: cli }))
    expect(error.message).toContain('answered 404 Not Found (expected 2xx): ')
    expect(error.message).toContain(`${'x'.repeat(450)}${'y'.repeat(50)}…`)
    expect(error.message).not.toContain('y'.repeat(51))
  })

  it('succeeds on the statuses given, and only those', async () => {
    const missing = await httpCall({ url: `${sut.url}/404`, expectStatus: [404, 410], policy: cli })
    expect(missing.status).toBe(404)
    const error = await failure(httpCall({ url: `${sut.url}/echo`, expectStatus: 201, policy: cli }))
    expect(error.message).toContain('answered 200 OK (expected 201)')
  })

  it('does not retry a 5xx that is expected', async () => {
    const result = await httpCall({ url: `${sut.url}/always-500`, expectStatus: 500, retries: 3, policy: cli })
    expect(result.json).toEqual({ error: 'broken' })
    expect(result.attempts).toBe(1)
  })
})

describe('redirects', () => {
  it('turns a POST into a GET without its body on 303 and 302, as fetch does', async () => {
    for (const path of ['/see-other', '/found']) {
      const result = await httpCall({ url: `${sut.url}${path}`, method: 'POST', body: { a: 1 }, policy: server })
      expect(result.json, path).toEqual({ method: 'GET', body: '', type: null })
    }
  })

  it('keeps the method and body on 307, and reads a relative Location', async () => {
    const kept = await httpCall({ url: `${sut.url}/temporary`, method: 'POST', body: { a: 1 }, policy: server })
    expect(kept.json).toEqual({ method: 'POST', body: '{"a":1}', type: 'application/json' })
    const relative = await httpCall({ url: `${sut.url}/moved-relative`, policy: server })
    expect(relative.json).toEqual({ method: 'GET', body: '', type: null })
    expect(sut.hits.some(hit => hit.url === '/echo?from=moved')).toBe(true)
  })

  it('answers with a redirect whose status is expected instead of following it', async () => {
    const result = await httpCall({ url: `${sut.url}/see-other`, method: 'POST', expectStatus: 303, policy: cli })
    expect(result.status).toBe(303)
    expect(result.headers.location).toBe('/echo')
  })

  it('follows 5 redirects and fails on the 6th', async () => {
    const five = await httpCall({ url: `${sut.url}/chain?left=5`, policy: cli })
    expect(five.json).toEqual({ done: true })
    const error = await failure(httpCall({ url: `${sut.url}/chain?left=6`, policy: cli }))
    expect(error.message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/chain\?left=… redirected more than 5 times \(the last to http:\/\/127\.0\.0\.1:\d+\/chain\?left=…\): call the final address\.$/)
    expect(sut.hits.filter(hit => hit.url === '/chain?left=0')).toHaveLength(1)
  })

  it('sends no credentials on to another origin, and keeps them on the same one', async () => {
    const headers = { 'Authorization': 'Bearer t0ken', 'X-Api-Key': 'k3y', 'Cookie': 'session=1', 'Accept': 'application/json' }
    const elsewhere = await httpCall({ url: `${sut.url}/to-other`, headers, policy: { guard: true, allow: ['127.0.0.1'] } })
    const sent = elsewhere.json as Record<string, string>
    expect(sent.host).toBe(`127.0.0.1:${other.port}`)
    expect(sent.accept).toBe('application/json')
    expect(sent).not.toHaveProperty('authorization')
    expect(sent).not.toHaveProperty('x-api-key')
    expect(sent).not.toHaveProperty('cookie')
    const same = await httpCall({ url: `${sut.url}/to-self`, headers, policy: cli })
    expect(same.json).toMatchObject({ 'authorization': 'Bearer t0ken', 'x-api-key': 'k3y', 'cookie': 'session=1' })
  })
})

describe('messages', () => {
  it('name the URL without its query values or credentials, and never a request header', async () => {
    const error = await failure(httpCall({ url: `${sut.url}/secret-500?api_key=supersecret&q=hello#frag`, headers: { 'x-api-key': 'topsecret-header' }, policy: cli }))
    expect(error.message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/secret-500\?api_key=…&q=… answered 500/)
    expect(error.message).not.toMatch(/supersecret|hello|frag|topsecret/)
  })

  it('refuse a header value that cannot be sent without quoting it', async () => {
    const error = await failure(httpCall({ url: `${sut.url}/echo`, headers: { 'x-api-key': 'secret-value\r\nInjected: 1' }, policy: cli }))
    expect(error.code).toBe('HTTP_REFUSED')
    expect(error.message).toContain('the header "x-api-key" has a name or value that cannot be sent')
    expect(error.message).not.toContain('secret-value')
  })

  it('say why a connection failed', async () => {
    const closed = await loopbackServer(() => undefined)
    await closed.close()
    const error = await failure(httpCall({ url: `${closed.url}/?key=s3cret`, policy: cli }))
    expect(error.code).toBe('HTTP_FAILED')
    expect(error.message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/\?key=… failed: connect ECONNREFUSED 127\.0\.0\.1:\d+\.$/)
    expect(error.details).toEqual({ reason: 'network', error_code: 'ECONNREFUSED' })
  })

  it('refuse text that is not a URL without quoting its query', async () => {
    const error = await failure(httpCall({ url: 'not a url?key=s3cret', policy: cli }))
    expect(error.code).toBe('HTTP_REFUSED')
    expect(error.message).toBe('"not a url" is not a URL: write an absolute http:// or https:// URL.')
  })
})
