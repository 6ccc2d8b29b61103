/** A step form's fields as text and back: what is typed, read as the field's kind. Pure, tested on its own. */
import { stepMeta } from '../../engine/steps/step-meta'
import { parseTypedJson } from '../../engine/text/safe-json'

/** A step type as people read it ("LLM", "Evaluator"). */
export const typeLabel = (type: string) => stepMeta(type)?.label ?? type

const parseJson = (raw: string, otherwise: unknown): unknown => {
  try {
    return parseTypedJson(raw)
  }
  catch {
    return otherwise
  }
}

/**
 * What is typed into a field, read as its kind: a number, JSON (kept as typed when it does not
 * parse, for the schema to flag), JSON-or-text (a reference or plain text stays text; a JSON
 * object or array, scorer data say, is parsed), or text. Empty is `undefined` (the field unset).
 */
export function parseField(raw: string, kind: string): unknown {
  if (kind === 'number' || kind === 'integer') return raw === '' ? undefined : Number(raw)
  if (kind === 'json-or-text') {
    const trimmed = raw.trim()
    if (!/^[[{]/.test(trimmed) || trimmed.startsWith('{{')) return raw === '' ? undefined : raw
    return parseJson(trimmed, raw)
  }
  if (kind === 'json') return raw.trim() ? parseJson(raw, raw) : undefined
  return raw
}

/**
 * Whether a field is edited in a text area: a text its step's schema says is written at length
 * (`multiline`, engine/schema/common.ts longText), or a value that may be JSON.
 */
export const isMultiline = (schema: object, kind: string): boolean => (schema as { multiline?: unknown }).multiline === true || kind !== 'string'

/** A config value as its field shows it: text as it is, anything else as indented JSON. */
export const configText = (value: unknown) => (value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value, null, 2))

/** A pinned output as its box shows it: text as it is, an object as indented JSON. */
export interface PinnedRow { json: boolean, text: string }
export type Pinned = string | Record<string, unknown>

export const pinnedRows = (pinned: readonly unknown[] | undefined): PinnedRow[] =>
  (pinned ?? []).map(p => (typeof p === 'string' ? { json: false, text: p } : { json: true, text: JSON.stringify(p, null, 2) }))

/**
 * The pinned outputs the boxes hold: an empty box is left out; a JSON box must hold an object,
 * else the index of the first that does not.
 */
export function pinnedFromRows(rows: readonly PinnedRow[]): { value: Pinned[] } | { invalid: number } {
  const value: Pinned[] = []
  for (const [i, row] of rows.entries()) {
    if (!row.json) {
      if (row.text !== '') value.push(row.text)
      continue
    }
    if (!row.text.trim()) continue
    const parsed = parseJson(row.text, undefined)
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { invalid: i }
    value.push(parsed as Record<string, unknown>)
  }
  return { value }
}

/**
 * What a run's output becomes as a pinned output: an LLM's answer its text (the rest — model,
 * usage, latency — is the call's, not the answer's), anything else the object; undefined when it
 * cannot be pinned (no object).
 */
export function pinFromOutput(type: string, output: unknown): Pinned | undefined {
  if (!output || typeof output !== 'object' || Array.isArray(output)) return undefined
  const text = (output as { text?: unknown }).text
  if (type === 'llm' && typeof text === 'string') return text
  return output as Record<string, unknown>
}

/** The fields a step's form marks required: those its schema requires, less what a step with pinned outputs may leave out. */
export function requiredFields(node: { type: string, pinned?: readonly unknown[] }, required: readonly string[] = []): Set<string> {
  const optional = node.pinned?.length ? stepMeta(node.type)?.pinnedOptional ?? [] : []
  return new Set(required.filter(field => !optional.includes(field)))
}
