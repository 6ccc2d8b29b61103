import { JudgeflowError } from '../errors'
import { parseTemplate, resolveReference, stringifyValue, type ReferenceScope } from './references'

/**
 * How much a run may render and store. A reference can repeat a large value many times, so sizes
 * are counted while rendering and the work stops as soon as a limit is passed: nothing oversized is
 * built in memory or stored. Sizes are characters of the value as JSON.
 */
export interface StorageLimits {
  /** One text field after rendering references (JUDGEFLOW_MAX_STEP_TEXT). */
  stepText: number
  /** A step's rendered input, and its output, each (JUDGEFLOW_MAX_STEP_RECORD). */
  stepRecord: number
  /** Every step input and output of a run together, all attempts (JUDGEFLOW_MAX_RUN_STORAGE). */
  run: number
}

export const DEFAULT_STORAGE_LIMITS: StorageLimits = { stepText: 1_000_000, stepRecord: 4_000_000, run: 32_000_000 }

/**
 * The length of `value` as JSON (string escapes aside), counted without building the JSON; the walk
 * stops as soon as the count passes `stopAbove` (the result is then some number above it), so the
 * work is bounded by the budget, however often a large value is referenced. Iterative: no depth limit.
 */
export function jsonSize(value: unknown, stopAbove = Number.POSITIVE_INFINITY): number {
  let size = 0
  const stack: unknown[] = [value]
  while (stack.length) {
    const item = stack.pop()
    if (typeof item === 'string') size += item.length + 2
    else if (typeof item === 'number' || typeof item === 'boolean') size += String(item).length
    else if (item === null || item === undefined) size += 4
    else if (typeof item === 'object') {
      if (Array.isArray(item)) {
        size += 2 + Math.max(0, item.length - 1)
        for (let i = item.length - 1; i >= 0; i--) stack.push(item[i])
      }
      else {
        // As JSON.stringify: a property whose value is undefined is left out.
        const entries = Object.entries(item).filter(([, child]) => child !== undefined)
        size += 2 + Math.max(0, entries.length - 1)
        for (const [key, child] of entries) {
          size += key.length + 3
          stack.push(child)
        }
      }
    }
    if (size > stopAbove) return size
  }
  return size
}

/**
 * Renders a step's config like `renderValue`, with the limits applied as it goes: a text field over
 * `stepText`, or the whole input over `stepRecord`, fails the step at once naming the field.
 * Returns the rendered input and its size.
 */
export function renderWithinLimits(nodeId: string, config: unknown, scope: ReferenceScope, limits: StorageLimits): { value: unknown, size: number } {
  let size = 0
  const count = (n: number, path: string) => {
    size += n
    if (size > limits.stepRecord) {
      throw new JudgeflowError('TOO_LARGE', `node "${nodeId}": its input passes ${limits.stepRecord} characters at ${path} after rendering references (JUDGEFLOW_MAX_STEP_RECORD); reference less data or raise the limit`)
    }
  }
  // Concatenation stops at the part that passes the limit, so its full length is never known.
  const textTooLong = (path: string, length?: number) => new JudgeflowError('TOO_LARGE',
    length === undefined
      ? `node "${nodeId}": ${path} is longer than the limit of ${limits.stepText} characters after rendering references (JUDGEFLOW_MAX_STEP_TEXT)`
      : `node "${nodeId}": ${path} is ${length} characters after rendering references, over the limit of ${limits.stepText} (JUDGEFLOW_MAX_STEP_TEXT)`)

  const renderText = (template: string, path: string): unknown => {
    if (!template.includes('{{')) {
      if (template.length > limits.stepText) throw textTooLong(path, template.length)
      count(template.length + 2, path)
      return template
    }
    const parsed = parseTemplate(template)
    if (!Array.isArray(parsed)) {
      // Exactly one reference keeps the value's type: measured, not copied.
      const resolved = resolveReference(parsed, scope)
      const value = resolved === undefined ? '' : resolved
      if (typeof value === 'string' && value.length > limits.stepText) throw textTooLong(path, value.length)
      count(jsonSize(value, limits.stepRecord - size), path)
      return value
    }
    let out = ''
    for (const part of parsed) {
      out += typeof part === 'string' ? part : stringifyValue(resolveReference(part, scope))
      if (out.length > limits.stepText) throw textTooLong(path)
    }
    count(out.length + 2, path)
    return out
  }

  const render = (value: unknown, path: string): unknown => {
    if (typeof value === 'string') return renderText(value, path)
    if (Array.isArray(value)) {
      count(2 + value.length, path)
      return value.map((item, i) => render(item, `${path}[${i}]`))
    }
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {}
      for (const [key, item] of Object.entries(value)) {
        count(key.length + 4, path)
        out[key] = render(item, `${path}.${key}`)
      }
      return out
    }
    count(jsonSize(value), path)
    return value
  }
  const value = render(config, 'config')
  return { value, size }
}
