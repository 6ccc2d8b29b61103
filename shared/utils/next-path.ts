/**
 * Where to go after signing in: `next` only when it is a path on this origin, else `/`.
 *
 * Browsers read `\` as `/` and drop tabs and newlines from URLs, so `/\evil.example` and
 * `/<tab>/evil.example` lead to another origin just like `//evil.example`. A path is accepted only
 * when it starts with a single `/` and has no backslash, whitespace or control character, checked
 * on the value and on its decoded form (a path that does not decode is refused too).
 */
export function safeNextPath(next: unknown): string {
  if (typeof next !== 'string') return '/'
  let decoded: string
  try {
    decoded = decodeURIComponent(next)
  }
  catch {
    return '/'
  }
  return [next, decoded].every(isPlainPath) ? next : '/'
}

// Whitespace (any Unicode space), C0 and C1 control characters, and the backslash.
const UNSAFE = /[\s\u0000-\u001f\u007f-\u009f\\]/

function isPlainPath(path: string): boolean {
  return path.startsWith('/') && !path.startsWith('//') && !UNSAFE.test(path)
}
