import { describe, expect, it } from 'vitest'
import { DEFAULT_HTTP_TIMEOUT_MS } from '../../../engine/http/request'
import { DEFAULT_HTTP_RETRIES, httpMethods, httpSpec } from '../../../engine/steps/http/spec'
import { HTTP_DEFAULTS, HTTP_METHODS, headerRows, headersOf, parseStatuses, plainSecretHeaders, repeatedHeader, sampleInput, statusText, testSummary } from '../../../app/utils/http-form'

describe('the http form\'s fields as text and back', () => {
  it('offers the engine\'s methods and says its defaults', () => {
    expect(HTTP_METHODS).toEqual(httpMethods)
    expect(HTTP_DEFAULTS).toEqual({ method: httpSpec.configSchema.parse({ url: 'x' }).method, retries: DEFAULT_HTTP_RETRIES, timeout_ms: DEFAULT_HTTP_TIMEOUT_MS })
  })

  it('reads expected statuses as one code or a list, and names a part that is not one', () => {
    expect(parseStatuses(' ')).toEqual({ ok: true, value: undefined })
    expect(parseStatuses('200')).toEqual({ ok: true, value: 200 })
    expect(parseStatuses('200, 201 204')).toEqual({ ok: true, value: [200, 201, 204] })
    expect(parseStatuses('200, 2xx')).toEqual({ ok: false, reason: 'has "2xx", which is not an HTTP status: write codes such as 200, or 200, 201' })
    expect(statusText([200, 201])).toBe('200, 201')
    expect(statusText(404)).toBe('404')
  })

  it('keeps header rows being named out of the step, and flags a name given twice', () => {
    const rows = [{ name: 'Authorization', value: 'Bearer {{env.TOKEN}}' }, { name: '', value: 'x' }, { name: 'x-trace', value: '1' }]
    expect(headersOf(rows)).toEqual({ 'Authorization': 'Bearer {{env.TOKEN}}', 'x-trace': '1' })
    expect(headersOf([{ name: ' ', value: '' }])).toBeUndefined()
    expect(headerRows({ A: 'b', N: 3 })).toEqual([{ name: 'A', value: 'b' }, { name: 'N', value: '3' }])
    expect(repeatedHeader(rows)).toBeUndefined()
    expect(repeatedHeader([...rows, { name: 'AUTHORIZATION', value: 'y' }])).toBe('Header 4 repeats header 1 (AUTHORIZATION): give each name once.')
  })

  it('warns of a secret written in a header instead of read from the environment', () => {
    expect(plainSecretHeaders([{ name: 'Authorization', value: 'Bearer sk-123' }, { name: 'X-Api-Key', value: '{{env.KEY}}' }, { name: 'Accept', value: 'json' }])).toEqual(['Authorization'])
  })

  it('sums a result up and starts the sample input from the input step\'s fields', () => {
    expect(testSummary({ status: 200, latency_ms: 143, attempts: 1 })).toBe('200 · 143 ms')
    expect(testSummary({ status: 201, latency_ms: 9, attempts: 3 })).toBe('201 · 9 ms · 3 calls')
    expect(JSON.parse(sampleInput({ question: { type: 'string', default: 'Hi' }, n: { type: 'number' } }))).toEqual({ question: 'Hi', n: '' })
    expect(sampleInput(undefined)).toBe('{}')
  })
})
