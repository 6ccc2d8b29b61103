import { JudgeflowError } from '../errors'
import type { ScorerConfig, ScorerResult } from '../schema/scorers'
import { defaultScorerRegistry, type ScorerRegistry } from './registry'

/** Runs each configured scorer: AND for `passed` (every scorer at or above its threshold), weighted mean for the score. */
export function runScorers(
  configs: readonly ScorerConfig[],
  data: { actual: unknown, expected: unknown, original: unknown },
  registry: ScorerRegistry = defaultScorerRegistry,
): { results: ScorerResult[], overall: number, passed: boolean } {
  const run = {}
  const results = configs.map((config): ScorerResult => {
    const scorer = registry.get(config.type)!
    const ctx = { original: data.original, options: config.options, run }
    let score: number
    let details: Record<string, unknown>
    try {
      ({ score, details } = scorer.measure(data.actual, data.expected, ctx))
      details ??= {}
    }
    catch (error) {
      if (error instanceof JudgeflowError) throw error
      throw new JudgeflowError('INTERNAL', `Scorer "${config.type}" failed: ${(error as Error).message}`, { category: 'system', cause: error })
    }
    // A custom scorer's answer is checked like a judge's: a score outside [0, 1] never passes.
    if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > 1) {
      throw new JudgeflowError('INTERNAL', `Scorer "${config.type}" returned ${JSON.stringify(score)}, not a score from 0 to 1.`, { category: 'system' })
    }
    const threshold = config.threshold ?? scorer.defaultThreshold
    return { type: config.type, score, threshold, weight: config.weight, passed: score >= threshold - 1e-9, details }
  })
  const totalWeight = results.reduce((sum, r) => sum + r.weight, 0)
  const overall = totalWeight ? Math.round((results.reduce((sum, r) => sum + r.score * r.weight, 0) / totalWeight) * 1e6) / 1e6 : 0
  return { results, overall, passed: results.every(r => r.passed) }
}

export { builtinScorers, defaultScorerRegistry, loadScorersFolder, ScorerRegistry } from './registry'
export { SCORER_PRESETS } from './presets'
export { SCORER_INPUTS, inputOfList, type ScorerInput } from './inputs'
export { defineScorer, type ScorerDefinition, type ScorerContext, type ScorerOutcome } from './types'
export type { CustomScorer } from './custom'
export { levenshteinDistance } from './builtin/levenshtein'
