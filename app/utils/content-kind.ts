import { DEFAULT_MAX_JSON_DEPTH, readJson } from '../../engine/text/safe-json'
import { referencePaths, type ReferenceOption } from './references'

/** What a field of an evaluator gives the evaluation, as far as the form can tell before a run. */
export interface ContentKind {
  kind: 'text' | 'json' | 'unknown'
  /** Where that is known from, to say to the person: "written text", "Draft (llm): string". */
  why: string
}

const UNKNOWN: ContentKind = { kind: 'unknown', why: '' }

/**
 * Whether a field's value is JSON or text: JSON written as such (an object or a list, or text that
 * parses as one), text written out, or one reference whose type the workflow declares (a step's
 * `text` is a string, its whole output an object). Several references, or one of no declared type,
 * are not known until a run.
 */
export function contentKind(value: unknown, references: readonly ReferenceOption[]): ContentKind {
  if (value === undefined || value === null || value === '') return UNKNOWN
  if (typeof value !== 'string') return typeof value === 'object' ? { kind: 'json', why: 'written as JSON' } : { kind: 'text', why: 'a written value' }
  const paths = referencePaths(value)
  if (!paths.length) {
    const trimmed = value.trim()
    const read = /^[[{]/.test(trimmed) ? readJson(trimmed, DEFAULT_MAX_JSON_DEPTH) : undefined
    return read?.ok ? { kind: 'json', why: 'written as JSON' } : { kind: 'text', why: 'written text' }
  }
  // Only a field that is one reference and nothing else hands on that reference's value as it is.
  if (paths.length > 1 || !/^\s*\{\{[^{}]*\}\}\s*$/.test(value)) return UNKNOWN
  const option = references.find(o => o.path === paths[0])
  const types = option?.type?.split(' or ').filter(t => t !== 'null') ?? []
  if (!option || !types.length) return UNKNOWN
  // A run input's field is said with its declared type, as a step's field is.
  const why = option.detail.includes(':') ? option.detail : `${option.detail}: ${option.type}`
  if (types.every(t => t === 'string')) return { kind: 'text', why }
  if (types.every(t => t === 'object' || t === 'array')) return { kind: 'json', why }
  return UNKNOWN
}
