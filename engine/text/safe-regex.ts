import { RE2JS } from 're2js'
import { JudgeflowError } from '../errors'

/**
 * Regular expressions written by users run on RE2 semantics (re2js, pure TypeScript):
 * matching time is linear in the input, so a pattern like `^(a+)+$` cannot hang the process.
 * RE2 has no backreferences or lookaheads; such a pattern is refused with a clear error.
 */
export interface SafePattern {
  source: string
  test(text: string): boolean
  /** The first match and where it starts, or null. */
  exec(text: string): { match: string, index: number } | null
}

/** The flags a pattern is compiled with: each place that runs a user's pattern says which it sets. */
export interface PatternFlags {
  ignoreCase?: boolean
  multiline?: boolean
  dotAll?: boolean
}

const compiled = new Map<string, SafePattern>()

export function compilePattern(source: string, options: PatternFlags & { field?: string } = {}): SafePattern {
  const key = `${options.ignoreCase ? 'i' : ''}${options.multiline ? 'm' : ''}${options.dotAll ? 's' : ''}/${source}`
  const hit = compiled.get(key)
  if (hit) return hit
  let flags = 0
  if (options.ignoreCase) flags |= RE2JS.CASE_INSENSITIVE
  if (options.multiline) flags |= RE2JS.MULTILINE
  if (options.dotAll) flags |= RE2JS.DOTALL
  let re: RE2JS
  try {
    re = RE2JS.compile(source, flags)
  }
  catch (error) {
    const where = options.field ? `${options.field}: ` : ''
    throw new JudgeflowError('INVALID_PATTERN', `${where}the pattern /${source}/ is not a valid regular expression (${(error as Error).message}); patterns use RE2 syntax, without backreferences or lookaheads`, { cause: error })
  }
  const pattern: SafePattern = {
    source,
    test: text => re.test(text),
    exec(text) {
      const m = re.matcher(text)
      return m.find() ? { match: m.group() ?? '', index: m.start() } : null
    },
  }
  if (compiled.size > 1000) compiled.clear()
  compiled.set(key, pattern)
  return pattern
}

/**
 * Why a pattern would be refused when it runs, or undefined: compiled here as the run compiles it
 * (RE2, the same flags), so validation reports an invalid or too large pattern before anything runs.
 * Browser-safe (re2js is pure TypeScript): the editor's validation worker calls it too.
 */
export function patternProblem(source: string, flags: PatternFlags = {}): string | undefined {
  try {
    compilePattern(source, flags)
    return undefined
  }
  catch (error) {
    if (error instanceof JudgeflowError) return error.message
    throw error
  }
}
