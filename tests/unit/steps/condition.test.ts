import { describe, expect, it } from 'vitest'
import { compare } from '../../../engine/steps/condition/compare'

describe('condition operators', () => {
  it.each([
    [true, 'eq', true, true], [true, 'eq', 'true', true], [3, 'eq', '3', true], [{ a: [1] }, 'eq', { a: [1] }, true], ['a', 'eq', 'b', false],
    ['a', 'neq', 'b', true], [0.85, 'gt', 0.8, true], [0.8, 'gte', 0.8, true], ['0.7', 'lt', 0.8, true], [0.8, 'lte', 0.79, false],
    ['hello world', 'contains', 'world', true], [['a', 'b'], 'contains', 'b', true], [{ k: 1 }, 'contains', 'k', true],
    ['Order #123', 'matches', '#\\d+', true], ['abc', 'matches', '^\\d+$', false],
    ['x', 'truthy', undefined, true], ['', 'truthy', undefined, false], ['false', 'truthy', undefined, false], [[], 'truthy', undefined, false],
  ] as const)('%j %s %j → %s', (left, op, right, expected) => {
    expect(compare(left, op, right)).toBe(expected)
  })

  it('compares numbers only with numbers, with a clear error', () => {
    expect(() => compare('abc', 'gt', 1)).toThrow('condition left is "abc", which is not a number')
  })

  it('matches in linear time: a catastrophic pattern does not hang', () => {
    // 2^40 steps for a backtracking engine; RE2 answers at once, and refuses the backreferences only backtracking can match.
    expect(compare(`${'a'.repeat(40)}!`, 'matches', '^(a+)+$')).toBe(false)
    expect(() => compare('aa', 'matches', '(a)\\1')).toThrow('patterns use RE2 syntax, without backreferences or lookaheads')
  })

  it('names an invalid pattern', () => {
    expect(() => compare('x', 'matches', '(unclosed')).toThrow(/condition right: the pattern \/\(unclosed\/ is not a valid regular expression/)
  })

  it('ignores case on request', () => {
    expect(compare('Hello', 'contains', 'hello', { ignoreCase: true })).toBe(true)
    expect(compare('Hello', 'matches', '^hello$', { ignoreCase: true })).toBe(true)
  })
})
