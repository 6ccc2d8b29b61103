/**
 * A form field that holds JSON as text (an http step's body, a code step's input): the value shown
 * as text and the text read back. Pure, tested on its own; useParsedField and JsonField use it.
 */
import { DEFAULT_MAX_JSON_DEPTH, readJson } from '../../engine/text/safe-json'

/** What was typed, read; or why not, as the end of a sentence whose subject is the field ("is not valid JSON: …"). */
export type Read<T> = { ok: true, value: T } | { ok: false, reason: string }

const LONE_REFERENCE = /^\{\{[^{}]*\}\}$/

/** A value as its field shows it: JSON, indented; a lone reference (`{{input.payload}}`) as written. */
export function jsonText(value: unknown): string {
  if (value === undefined) return ''
  if (typeof value === 'string' && LONE_REFERENCE.test(value.trim())) return value
  return JSON.stringify(value, null, 2)
}

/** A value typed: JSON, or a lone reference (its value is used); empty is no value. */
export function readJsonText(text: string): Read<unknown> {
  const trimmed = text.trim()
  if (!trimmed) return { ok: true, value: undefined }
  if (LONE_REFERENCE.test(trimmed)) return { ok: true, value: trimmed }
  const read = readJson(trimmed, DEFAULT_MAX_JSON_DEPTH)
  return read.ok ? read : { ok: false, reason: read.reason }
}
