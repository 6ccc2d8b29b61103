import { readdirSync, statSync } from 'node:fs'
import { isAbsolute, join } from 'node:path'
import { JudgeflowError } from '../engine/errors'

/** How many files one glob may match: a var glob runs the test once per file. */
export const MAX_GLOB_FILES = 1000

const wildcard = (segment: string) => /[*?]/.test(segment)

/** A path segment with `*` (any characters but `/`) and `?` (one) as a regular expression. */
function segmentPattern(segment: string): RegExp {
  const escaped = segment.replace(/[.+^$()|\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')
  return new RegExp(`^${escaped}$`)
}

function entries(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true })
  }
  catch {
    return []
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  }
  catch {
    return false
  }
}

/**
 * The files a promptfoo `file://` glob matches, beside the config: `*` and `?` within a name, `**`
 * across folders; names starting with a dot are left out, as glob leaves them. Paths relative to
 * `folder` (absolute for an absolute pattern), sorted: promptfoo takes them in the order the file
 * system lists them, which differs between machines. Braces and classes are refused.
 */
export function globFiles(folder: string, pattern: string): string[] {
  if (/[{}[\]]/.test(pattern)) throw new JudgeflowError('INVALID_INPUT', `the glob "${pattern}": braces and [classes] are not read; use * and ? (or name each file)`)
  const absolute = isAbsolute(pattern)
  const segments = pattern.replace(/\\/g, '/').split('/').filter(s => s && s !== '.')
  const found = new Set<string>()
  const walk = (dir: string, rel: string, i: number): void => {
    if (found.size > MAX_GLOB_FILES) throw new JudgeflowError('INVALID_INPUT', `the glob "${pattern}" matches more than ${MAX_GLOB_FILES} files; narrow it`)
    if (i === segments.length) {
      if (isFile(dir)) found.add(rel)
      return
    }
    const segment = segments[i]!
    const next = (name: string) => (rel ? `${rel}/${name}` : absolute ? `/${name}` : name)
    if (segment === '**') {
      walk(dir, rel, i + 1)
      for (const entry of entries(dir)) if (entry.isDirectory() && !entry.name.startsWith('.')) walk(join(dir, entry.name), next(entry.name), i)
      return
    }
    if (!wildcard(segment)) return walk(join(dir, segment), next(segment), i + 1)
    const matches = segmentPattern(segment)
    for (const entry of entries(dir)) if (!entry.name.startsWith('.') && matches.test(entry.name)) walk(join(dir, entry.name), next(entry.name), i + 1)
  }
  walk(absolute ? '/' : folder, '', 0)
  return [...found].sort()
}
