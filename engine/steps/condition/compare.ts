import { JudgeflowError } from '../../errors'
import { compilePattern } from '../../text/safe-regex'

import type { ConditionOperator } from './spec'

export { conditionOperators, type ConditionOperator } from './spec'

/** Equality over JSON values; a number and a numeric string, or a boolean and "true"/"false", compare by value. */
export function looseEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a === 'number' && typeof b === 'string') return b.trim() !== '' && Number(b) === a
  if (typeof a === 'string' && typeof b === 'number') return looseEqual(b, a)
  if (typeof a === 'boolean' && typeof b === 'string') return b === String(a)
  if (typeof a === 'string' && typeof b === 'boolean') return looseEqual(b, a)
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    if (Array.isArray(a) !== Array.isArray(b)) return false
    const ka = Object.keys(a)
    const kb = Object.keys(b)
    return ka.length === kb.length && ka.every(k => Object.hasOwn(b, k) && looseEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  }
  return false
}

function toNumber(value: unknown, side: string): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN
  if (Number.isNaN(n)) throw new JudgeflowError('INVALID_CONFIG', `condition ${side} is ${JSON.stringify(value) ?? 'undefined'}, which is not a number`)
  return n
}

/** `truthy` follows JSON sense: false, 0, "", "false", "0", null, [] and {} are false. */
export function isTruthy(value: unknown): boolean {
  if (typeof value === 'string') return value !== '' && value !== 'false' && value !== '0'
  if (Array.isArray(value)) return value.length > 0
  if (value && typeof value === 'object') return Object.keys(value).length > 0
  return Boolean(value)
}

export function compare(left: unknown, op: ConditionOperator, right: unknown, options: { ignoreCase?: boolean } = {}): boolean {
  switch (op) {
    case 'eq': return looseEqual(left, right)
    case 'neq': return !looseEqual(left, right)
    case 'gt': return toNumber(left, 'left') > toNumber(right, 'right')
    case 'gte': return toNumber(left, 'left') >= toNumber(right, 'right')
    case 'lt': return toNumber(left, 'left') < toNumber(right, 'right')
    case 'lte': return toNumber(left, 'left') <= toNumber(right, 'right')
    case 'truthy': return isTruthy(left)
    case 'contains':
      if (Array.isArray(left)) return left.some(item => looseEqual(item, right))
      if (typeof left === 'string') return options.ignoreCase ? left.toLowerCase().includes(String(right).toLowerCase()) : left.includes(String(right))
      if (left && typeof left === 'object') return Object.hasOwn(left, String(right))
      return false
    case 'matches':
      if (typeof right !== 'string') throw new JudgeflowError('INVALID_CONFIG', 'condition right must be a pattern string for "matches"')
      // The flags the workflow's validation compiles the pattern with too (conditionSpec.runProblems).
      return compilePattern(right, { ignoreCase: options.ignoreCase === true, field: 'condition right' }).test(typeof left === 'string' ? left : JSON.stringify(left) ?? '')
  }
}
