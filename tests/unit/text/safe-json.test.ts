import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { renderValue } from '../../../engine'
import { jsonShapeProblem, MAX_JSON_DEPTH_CEILING, parseJsonChecked, parseJsonWithin, parseTypedJson } from '../../../engine/text/safe-json'
import { jsonCopy, parseOwnJson } from '../../../engine/text/own-json'

/** `levels` objects nested in one another, as JSON text: {"a":{"a":…"x"…}}. */
const nested = (levels: number, key = 'a') => `${`{"${key}":`.repeat(levels)}"x"${'}'.repeat(levels)}`
const options = { maxDepth: 64, where: 'The request body' }

describe('JSON from users', () => {
  it('accepts values nested up to the limit and refuses deeper ones, naming the limit and the path', () => {
    expect(() => parseJsonChecked(nested(64), options)).not.toThrow()
    expect(() => parseJsonChecked(nested(65), options)).toThrow(
      `The request body nests objects and arrays more than 64 levels deep (at ${Array(64).fill('a').join('.')}): flatten it, or raise JUDGEFLOW_MAX_JSON_DEPTH (at most ${MAX_JSON_DEPTH_CEILING}).`,
    )
    expect(jsonShapeProblem([[[1]]], 2)).toEqual({ kind: 'too_deep', path: '[0][0]' })
    expect(jsonShapeProblem({ list: [{ ok: 1 }, { deep: [[]] }] }, 4)).toEqual({ kind: 'too_deep', path: 'list[1].deep[0]' })
  })

  it('checks any depth without recursion, and shortens a long path', () => {
    const text = `${'['.repeat(200_000)}${']'.repeat(200_000)}`
    expect(jsonShapeProblem(JSON.parse(text), 64)).toEqual({ kind: 'too_deep', path: '[0]'.repeat(64) })
    const long = jsonShapeProblem(JSON.parse(nested(100, 'k'.repeat(10))), 64)!
    expect(long.path).toBe(`${'k'.repeat(10)}.`.repeat(10).slice(0, 100) + '…' + `.${'k'.repeat(10)}`.repeat(10).slice(-100))
  })

  it('refuses a __proto__ key anywhere, with its path; accepts constructor and prototype as ordinary keys', () => {
    expect(() => parseJsonChecked('{"nodes":[{"config":{"__proto__":{"polluted":true}}}]}', options))
      .toThrow('The request body is refused: "__proto__" is not allowed as a key (at nodes[0].config).')
    expect(() => parseJsonChecked('{"\\u005f_proto__":1}', options)).toThrow('(at (top level))')
    const value = parseJsonChecked('{"constructor":{"prototype":{"polluted":true}},"prototype":{"polluted":true}}', options) as Record<string, unknown>
    expect(Object.keys(value)).toEqual(['constructor', 'prototype'])
    // The keys stay ordinary data through validation, spreading and rendering: nothing reaches Object.prototype.
    const parsed = z.record(z.string(), z.unknown()).parse(value)
    const copies = [{ ...parsed }, renderValue(parsed, { input: {}, steps: new Map() } as never), structuredClone(parsed)]
    for (const copy of copies) expect(Object.getPrototypeOf(copy)).toBe(Object.prototype)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty('polluted')
  })

  it('says what is wrong with text that is not JSON, without quoting it', () => {
    expect(() => parseJsonChecked('{"secret": [1,]', options)).toThrow(/^The request body is not valid JSON: Unexpected token '\]'\.$/)
    expect(() => parseJsonChecked('{"a":1', options)).toThrow(/^The request body is not valid JSON: .*position 6/)
  })

  it('parseJsonWithin reads as JSON.parse does, its syntax errors as they are, and refuses a value nested past the limit', () => {
    expect(parseJsonWithin('{"__proto__": [1, {"a": "b"}]}', 3)).toEqual(JSON.parse('{"__proto__": [1, {"a": "b"}]}'))
    expect(() => parseJsonWithin('{"a": [1,]}', 3)).toThrow(SyntaxError)
    expect(() => parseJsonWithin('{"a": [[[1]]]}', 3)).toThrow('The JSON nests objects and arrays more than 3 levels deep (at a[0][0]).')
    const deep = `${'['.repeat(MAX_JSON_DEPTH_CEILING + 1)}${']'.repeat(MAX_JSON_DEPTH_CEILING + 1)}`
    expect(() => parseTypedJson(deep)).toThrow(`more than ${MAX_JSON_DEPTH_CEILING} levels deep`)
    expect(parseTypedJson('[[1]]')).toEqual([[1]])
  })

  it('the product\'s own JSON is read back as written, and plain data copied through it', () => {
    expect(parseOwnJson<{ a: number[] }>('{"a":[1,2]}').a).toEqual([1, 2])
    const value = { a: { b: [1, 'two', null] } }
    const copy = jsonCopy(value)
    expect(copy).toEqual(value)
    expect(copy.a).not.toBe(value.a)
  })
})
