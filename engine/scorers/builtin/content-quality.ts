import type { ContentPattern, EditOutput } from '../../schema/scorers'
import { contentPatternSchema } from '../../schema/scorers'
import { compilePattern } from '../../text/safe-regex'
import { contentByPage, defineEditScorer } from '../edits'
import { contentPatternFlags } from '../patterns'
import { parseData, ratio } from '../types'
import { z } from 'zod'

const EXCERPT = 60

/**
 * Each expected pattern (RE2 syntax, optional ignore_case) is looked for in the content of its
 * page (every page when none is given). Details name every pattern not found, with an excerpt.
 */
export function checkPatterns(actual: EditOutput, patterns: readonly ContentPattern[]) {
  const pages = contentByPage(actual)
  const all = [...pages.values()].join('\n')
  const issues: string[] = []
  let matched = 0
  patterns.forEach((p, i) => {
    const content = p.page === undefined ? all : pages.get(p.page) ?? ''
    const found = compilePattern(p.pattern, { ...contentPatternFlags(p), field: `expected.patterns[${i}].pattern` }).test(content)
    if (found) matched++
    else {
      const excerpt = content.length > EXCERPT ? `${content.slice(0, EXCERPT)}...` : content
      issues.push(`Page '${p.page ?? '(all)'}': Pattern '${p.pattern}' not found in content: '${excerpt}'`)
    }
  })
  return { matchedPatterns: matched, totalPatterns: patterns.length, contentIssues: issues }
}

/** The expected patterns plus `options.patterns`; a bad option is an error, never a pattern dropped. */
function patternsOf(expected: { patterns: ContentPattern[] }, options: Record<string, unknown>): ContentPattern[] {
  if (options.patterns === undefined) return expected.patterns
  return [...expected.patterns, ...parseData(z.array(contentPatternSchema), options.patterns, 'options.patterns', 'content-quality')]
}

export const contentQuality = defineEditScorer({
  type: 'content-quality',
  label: 'Content quality',
  description: 'Share of the expected patterns (regular expressions, per page) found in the generated content.',
  defaultThreshold: 0.6,
  analyze({ actual, expected }, options) {
    const result = checkPatterns(actual, patternsOf(expected, options))
    return { score: ratio(result.matchedPatterns, result.totalPatterns), ...result }
  },
})
