/**
 * The regular expressions a built-in scorer's options hold, and the flags its run compiles each with:
 * the scorers compile them from here, and the evaluator's check (evaluation-types/scorers/schema.ts)
 * compiles the same ones before anything runs. Browser-safe, free of zod.
 */
import type { PatternFlags } from '../text/safe-regex'
import { schemaPatterns } from '../text/schema-patterns'

export interface ScorerPattern {
  /** Where in the scorer's config, e.g. `options.patterns[1].pattern`. */
  path: string
  source: string
  flags: PatternFlags
}

/** The regex scorer's flags: `ignore_case: true` alone sets one. */
export const regexScorerFlags = (options: Record<string, unknown>): PatternFlags => ({ ignoreCase: options.ignore_case === true })

/** A content-quality pattern's flags: its own `ignore_case`. */
export const contentPatternFlags = (pattern: { ignore_case?: unknown }): PatternFlags => ({ ignoreCase: pattern.ignore_case === true })

/** The patterns in a scorer's options (not those it reads from `expected`, which are the run's data). */
export function scorerOptionPatterns(type: string, options: Record<string, unknown>): ScorerPattern[] {
  switch (type) {
    case 'regex':
      return typeof options.pattern === 'string' && options.pattern ? [{ path: 'options.pattern', source: options.pattern, flags: regexScorerFlags(options) }] : []
    case 'content-quality':
      return Array.isArray(options.patterns)
        ? options.patterns.flatMap((item: unknown, i): ScorerPattern[] => {
            if (typeof item === 'string') return [{ path: `options.patterns[${i}]`, source: item, flags: {} }]
            const pattern = item && typeof item === 'object' ? item as { pattern?: unknown, ignore_case?: unknown } : {}
            return typeof pattern.pattern === 'string' ? [{ path: `options.patterns[${i}].pattern`, source: pattern.pattern, flags: contentPatternFlags(pattern) }] : []
          })
        : []
    case 'json-schema':
      return schemaPatterns(options.schema).map(({ path, source }) => ({ path: `options.schema.${path}`, source, flags: {} }))
    default:
      return []
  }
}
