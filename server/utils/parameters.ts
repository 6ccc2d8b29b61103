import { z } from 'zod'
import { MAX_STORED_INTEGER } from '~~/core/store'

/**
 * A whole-number parameter (of a path, a query or a header), written in digits, from `min` to
 * `max`: anything else is a 400 naming the parameter and the range. `max` is by default the
 * largest number a store keeps in an integer column (versions, attempts, round numbers), so that
 * a number past it is refused here, the same on both stores, rather than failing PostgreSQL's query.
 */
export function wholeNumber({ min = 1, max = MAX_STORED_INTEGER }: { min?: number, max?: number } = {}) {
  return z.unknown().transform((value, ctx) => {
    const number = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN
    if (number >= min && number <= max) return number
    ctx.addIssue({ code: 'custom', message: `must be a whole number from ${min} to ${max}, ${givenAs(value)}` })
    return z.NEVER
  })
}

function givenAs(value: unknown): string {
  if (Array.isArray(value)) return `given once (not ${value.length} times)`
  if (typeof value !== 'string') return 'and is missing'
  return `not ${/^[\w.+-]{1,40}$/.test(value) ? value : JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`
}
