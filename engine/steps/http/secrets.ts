/**
 * What of a response an http step keeps: the headers that say nothing private, and no value of a
 * variable its headers sent (a service may echo its request).
 */

/** Response headers kept in the step's output (lower case); `x-ratelimit-*` and `ratelimit-*` too. */
const SHOWN_HEADERS = new Set([
  'content-type', 'content-length', 'content-language', 'content-encoding', 'date', 'etag', 'last-modified', 'age',
  'cache-control', 'expires', 'vary', 'retry-after', 'location', 'server', 'server-timing', 'via',
  'x-request-id', 'request-id', 'x-correlation-id', 'x-trace-id', 'traceparent', 'openai-processing-ms', 'openai-model', 'x-model',
])

export function shownHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const shown: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (SHOWN_HEADERS.has(name) || name.startsWith('x-ratelimit-') || name.startsWith('ratelimit')) shown[name] = value
  }
  return shown
}

/** Values shorter than this are not searched for: they would match ordinary text. */
const MIN_SECRET_LENGTH = 4

/** A function replacing every value of `secrets` (by variable name) in a value's strings with `[env.NAME]`. */
export function redactor(secrets: ReadonlyMap<string, string>): <T>(value: T) => T {
  const pairs = [...secrets].filter(([, value]) => value.length >= MIN_SECRET_LENGTH).sort((a, b) => b[1].length - a[1].length)
  const inText = (text: string) => pairs.reduce((out, [name, value]) => out.split(value).join(`[env.${name}]`), text)
  const visit = (value: unknown): unknown => {
    if (typeof value === 'string') return inText(value)
    if (Array.isArray(value)) return value.map(visit)
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [inText(key), visit(item)]))
    return value
  }
  return <T>(value: T) => (pairs.length ? visit(value) as T : value)
}
