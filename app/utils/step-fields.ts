/** A step form's fields as text and back: what is typed, read as the field's kind. Pure, tested on its own. */
import { stepSpecs } from '../../engine/steps/specs'

const specs = stepSpecs()

const parseJson = (raw: string, otherwise: unknown): unknown => {
  try {
    return JSON.parse(raw)
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

/** A config value as its field shows it: text as it is, anything else as indented JSON. */
export const configText = (value: unknown) => (value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value, null, 2))

/** Pinned outputs one per line: a string as it is, an object as JSON. */
export const pinnedText = (pinned: readonly unknown[] | undefined) => (pinned ?? []).map(p => (typeof p === 'string' ? p : JSON.stringify(p))).join('\n')

/** Pinned outputs typed one per line: a JSON object is an output, any other line its text. */
export function parsePinned(raw: string): Array<string | Record<string, unknown>> {
  return raw.split('\n').filter(line => line.trim()).map((line) => {
    const parsed = parseJson(line, line)
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed as Record<string, unknown> : line
  })
}

/** The fields a step's form marks required: those its schema requires, less what a step with pinned outputs may leave out. */
export function requiredFields(node: { type: string, pinned?: readonly unknown[] }, required: readonly string[] = []): Set<string> {
  const optional = node.pinned?.length ? specs.get(node.type)?.pinnedOptional ?? [] : []
  return new Set(required.filter(field => !optional.includes(field)))
}
