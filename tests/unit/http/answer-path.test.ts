import { describe, expect, it } from 'vitest'
import { JudgeflowError } from '../../../engine/errors'
import { extractAnswer, parseAnswerPath } from '../../../engine/http/answer-path'

const chat = {
  id: 'cmpl-1',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Paris' }, finish_reason: 'stop' }],
  usage: { total_tokens: 12 },
}

function thrown(work: () => unknown): JudgeflowError {
  let error: unknown
  try {
    work()
  }
  catch (e) {
    error = e
  }
  expect(error).toBeInstanceOf(JudgeflowError)
  return error as JudgeflowError
}

describe('extractAnswer', () => {
  it('reads the DESIGN\'s paths', () => {
    expect(extractAnswer(chat, 'choices[0].message.content')).toBe('Paris')
    expect(extractAnswer({ output: { text: 'hi' } }, 'output.text')).toBe('hi')
    expect(extractAnswer({ data: { items: ['a', 'b', { c: 3 }] } }, 'data.items[2]')).toEqual({ c: 3 })
    expect(extractAnswer([[1, 2], [3, 4]], '[1][0]')).toBe(3)
  })

  it('reads quoted keys holding dots or spaces', () => {
    const json = { 'a.b': { 'x y': 1 }, 'data': { '0': 'zero', 'it\'s': 2 } }
    expect(extractAnswer(json, '["a.b"]["x y"]')).toBe(1)
    expect(extractAnswer(json, 'data["it\'s"]')).toBe(2)
    expect(extractAnswer(json, 'data["0"]')).toBe('zero')
  })

  it('gives the whole body for no path, an empty one or $, and takes a leading $', () => {
    expect(extractAnswer(chat, undefined)).toBe(chat)
    expect(extractAnswer(chat, '')).toBe(chat)
    expect(extractAnswer(chat, '$')).toBe(chat)
    expect(extractAnswer(chat, '$.usage.total_tokens')).toBe(12)
    expect(extractAnswer([{ a: 1 }], '$[0].a')).toBe(1)
    expect(extractAnswer('plain text', '')).toBe('plain text')
  })

  it('gives values that are falsy as they are', () => {
    expect(extractAnswer({ a: { b: null, c: 0, d: '', e: false } }, 'a.b')).toBeNull()
    expect(extractAnswer({ a: { b: null, c: 0, d: '', e: false } }, 'a.c')).toBe(0)
    expect(extractAnswer({ a: { b: null, c: 0, d: '', e: false } }, 'a.e')).toBe(false)
  })

  it('names the path, the part that failed and the keys that are there', () => {
    const error = thrown(() => extractAnswer(chat, 'choices[0].message.text'))
    expect(error.code).toBe('ANSWER_NOT_FOUND')
    expect(error.message).toBe('The answer path "choices[0].message.text" finds nothing at "choices[0].message.text": there is no key "text"; the keys there are "role", "content".')
    expect(error.details).toEqual({ path: 'choices[0].message.text', failed_at: 'choices[0].message.text', keys: ['role', 'content'] })
    expect(thrown(() => extractAnswer(chat, 'output.text')).message)
      .toBe('The answer path "output.text" finds nothing at "output": there is no key "output"; the keys there are "id", "choices", "usage".')
  })

  it('says when an index is past the end or the value there is not a container', () => {
    expect(thrown(() => extractAnswer(chat, 'choices[1].message')).message).toContain('finds nothing at "choices[1]": the array there has 1 item, no [1]')
    expect(thrown(() => extractAnswer(chat, 'choices.message')).message).toContain('finds nothing at "choices.message": there is an array of 1 item, not an object with the key "message"')
    expect(thrown(() => extractAnswer(chat, 'id.length')).message).toContain('finds nothing at "id.length": there is a string ("cmpl-1"), not an object')
    expect(thrown(() => extractAnswer(chat, 'usage.total_tokens[0]')).message).toContain('there is a number (12), not an array')
    expect(thrown(() => extractAnswer(null, 'a')).message).toContain('finds nothing at "a": there is null, not an object')
    expect(thrown(() => extractAnswer({}, 'a')).message).toContain('the object there is empty, no "a"')
  })

  it('lists at most 20 keys', () => {
    const wide = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, i]))
    const error = thrown(() => extractAnswer(wide, 'missing'))
    expect(error.message).toContain('"k19", … (30 in all)')
    expect(error.message).not.toContain('"k20"')
    expect((error.details as { keys: string[] }).keys).toHaveLength(20)
  })

  it('reads own keys only, never what an object inherits', () => {
    expect(thrown(() => extractAnswer({ a: {} }, 'a.toString')).code).toBe('ANSWER_NOT_FOUND')
    expect(thrown(() => extractAnswer({ a: [] }, 'a.length')).code).toBe('ANSWER_NOT_FOUND')
    expect(thrown(() => extractAnswer({ a: 1 }, 'constructor')).code).toBe('INVALID_CONFIG')
    expect(thrown(() => extractAnswer({ a: 1 }, '__proto__')).code).toBe('INVALID_CONFIG')
  })
})

describe('parseAnswerPath', () => {
  it('reads keys and indexes', () => {
    expect(parseAnswerPath('choices[0].message.content')).toEqual(['choices', 0, 'message', 'content'])
    expect(parseAnswerPath(' $.data["a.b"][2] ')).toEqual(['data', 'a.b', 2])
    expect(parseAnswerPath('$')).toEqual([])
  })

  it.each([
    ['choices[0', 'an unclosed "["'],
    ['choices[x]', '"[x]" must be an index or a quoted key'],
    ['output.', 'it ends with "."'],
    ['a..b', 'unexpected "."'],
    ['choices[-1]', '"[-1]" must be an index or a quoted key'],
  ])('refuses "%s" saying why', (path, why) => {
    const error = thrown(() => parseAnswerPath(path))
    expect(error.code).toBe('INVALID_CONFIG')
    expect(error.message).toBe(`The answer path "${path}" is not a path: ${why}. Write keys and indexes such as choices[0].message.content.`)
  })
})
