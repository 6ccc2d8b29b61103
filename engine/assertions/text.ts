import { distance } from 'fastest-levenshtein'
import { compilePattern } from '../text/safe-regex'
import { MAX_VALUE_DEPTH, parseJsonWithin } from '../text/safe-json'
import { passFail, type Assertion, type AssertionHandler, type HandlerInput } from './types'

/** Checks on the output's text: equality, containment, prefix, pattern, edit distance. */

/** Equality of JSON values: same kinds, same keys, equal members (arrays in order). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  return ka.length === kb.length && ka.every(k => Object.hasOwn(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
}

const isText = (value: unknown): value is string | number => (typeof value === 'string' && value !== '') || (typeof value === 'number' && !Number.isNaN(value))

/**
 * A list written as one text, as promptfoo reads it: comma-separated, each item trimmed, an item
 * in double quotes keeping its commas (`\"`, `\\` and `""` inside it are escapes).
 */
export function splitList(value: string): string[] {
  const items: string[] = []
  let i = 0
  while (i < value.length) {
    while (i < value.length && (value[i] === ',' || /\s/.test(value[i]!))) i++
    if (i >= value.length) break
    if (value[i] === '"') {
      let item = ''
      let closed = false
      for (i++; i < value.length;) {
        if (value[i] === '\\' && (value[i + 1] === '"' || value[i + 1] === '\\')) { item += value[i + 1]; i += 2 }
        else if (value[i] === '"' && value[i + 1] === '"') { item += '"'; i += 2 }
        else if (value[i] === '"') { i++; closed = true; break }
        else item += value[i++]
      }
      if (!closed) throw new Error('a quoted item is not closed')
      while (i < value.length && /\s/.test(value[i]!)) i++
      if (i < value.length && value[i] !== ',') throw new Error('a quoted item must be followed by a comma')
      items.push(item)
    }
    else {
      const start = i
      while (i < value.length && value[i] !== ',') i++
      items.push(value.slice(start, i).trim())
    }
  }
  return items
}

function listOf(assertion: Assertion): unknown[] | string {
  const { value } = assertion
  if (!value) return 'has no value'
  if (typeof value === 'string') {
    try {
      return splitList(value)
    }
    catch (error) {
      return (error as Error).message
    }
  }
  return Array.isArray(value) ? value : 'must be a list (or a comma-separated text)'
}

const lower = (text: string, fold: boolean) => (fold ? text.toLowerCase() : text)

function containsHandler(type: string, fold: boolean): AssertionHandler {
  return {
    type,
    label: type,
    description: `The output contains the value${fold ? ', ignoring case' : ''}.`,
    negatable: true,
    check: a => (isText(a.value) ? undefined : 'must have a text or number value'),
    handle: ({ assertion, text, inverse }) => {
      const pass = lower(text, fold).includes(lower(String(assertion.value), fold)) !== inverse
      return passFail(pass, `Expected output to ${inverse ? 'not ' : ''}contain "${String(assertion.value)}"`)
    },
  }
}

function containsListHandler(type: string, fold: boolean, all: boolean): AssertionHandler {
  return {
    type,
    label: type,
    description: `The output contains ${all ? 'every' : 'at least one'} value of the list${fold ? ', ignoring case' : ''}.`,
    negatable: true,
    check: (a) => {
      const list = listOf(a)
      return typeof list === 'string' ? list : undefined
    },
    handle: ({ assertion, text, inverse }) => {
      const list = listOf(assertion) as unknown[]
      const has = (item: unknown) => lower(text, fold).includes(lower(String(item), fold))
      if (all) {
        const missing = list.filter(item => !has(item))
        return passFail((missing.length === 0) !== inverse, `Expected output to ${inverse ? 'not ' : ''}contain all of [${list.join(', ')}]. Missing: [${missing.join(', ')}]`)
      }
      return passFail(list.some(has) !== inverse, `Expected output to ${inverse ? 'not ' : ''}contain one of "${list.join(', ')}"`)
    },
  }
}

function equals({ assertion, text, inverse }: HandlerInput) {
  let pass: boolean
  let expected: string
  if (typeof assertion.value === 'object' && assertion.value !== null) {
    // An object or list is compared with the output read as JSON.
    try {
      pass = jsonEqual(assertion.value, parseJsonWithin(text, MAX_VALUE_DEPTH)) !== inverse
    }
    catch {
      pass = inverse
    }
    expected = JSON.stringify(assertion.value)
  }
  else {
    expected = String(assertion.value)
    pass = (expected === text) !== inverse
  }
  return passFail(pass, `Expected output "${text}" to ${inverse ? 'not ' : ''}equal "${expected}"`)
}

export const textHandlers: AssertionHandler[] = [
  {
    type: 'equals', label: 'equals', description: 'The output is exactly the value (an object or list: the output read as JSON equals it).', negatable: true,
    check: a => (a.value === undefined ? 'has no value' : undefined),
    handle: equals,
  },
  containsHandler('contains', false),
  containsHandler('icontains', true),
  containsListHandler('contains-any', false, false),
  containsListHandler('icontains-any', true, false),
  containsListHandler('contains-all', false, true),
  containsListHandler('icontains-all', true, true),
  {
    type: 'starts-with', label: 'starts-with', description: 'The output starts with the value.', negatable: true,
    check: a => (typeof a.value === 'string' && a.value ? undefined : 'must have a text value'),
    handle: ({ assertion, text, inverse }) => passFail(text.startsWith(String(assertion.value)) !== inverse, `Expected output to ${inverse ? 'not ' : ''}start with "${String(assertion.value)}"`),
  },
  {
    type: 'regex', label: 'regex', description: 'The output matches the pattern (RE2 syntax: no backreferences or lookaheads).', negatable: true,
    check: (a) => {
      if (typeof a.value !== 'string' || !a.value) return 'must have a pattern as its value'
      try {
        compilePattern(a.value)
        return undefined
      }
      catch (error) {
        return (error as Error).message
      }
    },
    handle: ({ assertion, text, inverse }) => passFail(compilePattern(String(assertion.value)).test(text) !== inverse, `Expected output to ${inverse ? 'not ' : ''}match regex "${String(assertion.value)}"`),
  },
  {
    type: 'levenshtein', label: 'levenshtein', description: 'The output is within `threshold` edits (default 5) of the value.', negatable: true,
    check: a => (typeof a.value === 'string' ? undefined : 'must have a text value'),
    handle: ({ assertion, text, inverse }) => {
      const edits = distance(text, String(assertion.value))
      const threshold = assertion.threshold ?? 5
      return passFail((edits <= threshold) !== inverse, `Levenshtein distance ${edits} is ${inverse ? 'less than or equal to' : 'greater than'} threshold ${threshold}`)
    },
  },
]
