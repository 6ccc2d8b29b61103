/** The http step's form: its fields as text and back, and what it says of them. Pure, tested on its own. */
import type { Read } from './json-field'

/**
 * The step's methods and defaults, as engine/steps/http/spec.ts and engine/http/request.ts have them
 * (the page loads no step schema; tests/unit/ui/http-form.test.ts holds these to the engine's).
 */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const
export const HTTP_DEFAULTS = { method: 'POST', retries: 2, timeout_ms: 30_000 } as const

/** A header as the form edits it: a row of name and value. */
export interface HeaderRow { name: string, value: string }

export const headerRows = (headers: unknown): HeaderRow[] =>
  headers && typeof headers === 'object' && !Array.isArray(headers)
    ? Object.entries(headers).map(([name, value]) => ({ name, value: String(value) }))
    : []

/** The headers the rows hold; a row without a name yet is left out (it is being filled in). Undefined when none. */
export function headersOf(rows: readonly HeaderRow[]): Record<string, string> | undefined {
  const named = rows.filter(row => row.name.trim())
  return named.length ? Object.fromEntries(named.map(row => [row.name.trim(), row.value])) : undefined
}

/** A header named twice (names ignore case): only one of them would be sent. */
export function repeatedHeader(rows: readonly HeaderRow[]): string | undefined {
  const seen = new Map<string, number>()
  for (const [i, row] of rows.entries()) {
    const key = row.name.trim().toLowerCase()
    if (!key) continue
    if (seen.has(key)) return `Header ${i + 1} repeats header ${seen.get(key)! + 1} (${row.name.trim()}): give each name once.`
    seen.set(key, i)
  }
  return undefined
}

const SECRET_NAME = /authorization|api[-_]?key|token|secret|password|cookie/i

/** Headers whose name says they carry a secret written in plain text: it would be stored with the workflow. */
export function plainSecretHeaders(rows: readonly HeaderRow[]): string[] {
  return rows.filter(row => SECRET_NAME.test(row.name) && row.value.trim() && !row.value.includes('{{env.')).map(row => row.name.trim())
}

/** Expected statuses as the field shows them: `200` or `200, 201`. */
export const statusText = (value: unknown): string => (Array.isArray(value) ? value.join(', ') : value === undefined ? '' : String(value))

/** Expected statuses typed, separated by commas or spaces: one is a number, several a list; empty is any 2xx. */
export function parseStatuses(text: string): Read<number | number[] | undefined> {
  const parts = text.split(/[\s,]+/).filter(Boolean)
  if (!parts.length) return { ok: true, value: undefined }
  const wrong = parts.find(part => !/^[1-5]\d\d$/.test(part))
  if (wrong) return { ok: false, reason: `has "${wrong}", which is not an HTTP status: write codes such as 200, or 200, 201` }
  const codes = parts.map(Number)
  return { ok: true, value: codes.length === 1 ? codes[0] : codes }
}

/** A test request's result in one line: `200 · 143 ms · 2 calls`. */
export function testSummary(answer: { status: number, latency_ms: number, attempts: number }): string {
  const calls = answer.attempts > 1 ? ` · ${answer.attempts} calls` : ''
  return `${answer.status} · ${answer.latency_ms} ms${calls}`
}

/** A sample run input to start the test from: each field the input step declares, with its default or empty. */
export function sampleInput(fields: unknown): string {
  if (!fields || typeof fields !== 'object') return '{}'
  const sample = Object.fromEntries(Object.entries(fields as Record<string, { default?: unknown }>).map(([name, field]) => [name, field?.default ?? '']))
  return JSON.stringify(sample, null, 2)
}
