/** Helpers shared by the text and JSON scorers. */
import { MAX_VALUE_DEPTH, parseJsonWithin } from '../text/safe-json'

/** Texts compared as given, or trimmed and/or case-folded by options. */
export function normalize(text: string, options: Record<string, unknown>): string {
  let out = options.trim === false ? text : text.trim()
  if (options.ignore_case) out = out.toLowerCase()
  return out
}

/**
 * A value as JSON data: objects as they are, text parsed. Text is checked for depth as values in
 * a run are: the scorers walk what it holds by recursion.
 */
export function jsonOf(value: unknown): { ok: true, value: unknown } | { ok: false, error: string } {
  if (typeof value !== 'string') return { ok: true, value }
  try {
    return { ok: true, value: parseJsonWithin(value.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''), MAX_VALUE_DEPTH) }
  }
  catch (error) {
    return { ok: false, error: (error as Error).message }
  }
}
