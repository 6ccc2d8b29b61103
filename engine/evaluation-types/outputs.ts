/**
 * Pieces of the evaluation types' output declarations (each type's `spec.ts` `outputs`). Browser-safe
 * and free of zod. The fields every type reports are declared by the evaluator step
 * (engine/steps/evaluator/outputs.ts).
 */
import { namesIn, objectOf, output, type OutputField } from '../steps/outputs'
import { SCORER_PRESETS } from '../scorers/presets'

/** The keys of `criteria_scores` for the types that judge criteria, in words. */
export const CRITERIA_KEYS = 'each criterion\'s `name` (`overall` when none is given)'

/** The criteria judged: the config's, or the one `overall` criterion when it gives none. */
export function criteriaNames(config: Record<string, unknown>): string[] | undefined {
  const names = namesIn(config.criteria)
  return names && !names.length ? ['overall'] : names
}

export const SAMPLES_FIELD: OutputField = objectOf({
  overall_scores: output('array', 'each sample\'s overall score', { items: output('number', 'a sample\'s overall score') }),
  sd: output('number', 'their standard deviation'),
}, 'each sample\'s overall score and their spread', { optional: 'when samples > 1' })

/** What stood in for what the config asked, said where the verdict is read (engine/evaluator/judge-fallback.ts, the metric suite). */
export const WARNINGS_FIELD: OutputField = output('array', 'what to know about how the result was reached', {
  items: output('string', 'a warning'),
  optional: 'when the offline local:heuristic judge stood in: for a judge no key allowed, or for a metric\'s system_instruction',
})

export const PANEL_FIELD: OutputField = objectOf({
  aggregate: output('string', 'how the verdicts were combined: majority or mean'),
  judges: output('array', 'each judge\'s model, overall score and verdict', {
    items: objectOf({ model: output('string', 'the judge'), overall_score: output('number', 'its overall score'), passed: output('boolean', 'its verdict') }, 'one judge'),
  }),
  agreement: output('number', 'the share of pairs of judges with the same verdict'),
  verdict_rule: output('string', 'the verdict and the rule that decided it, in one sentence (e.g. "passed: 2 of 3 judges passed (majority), though the mean score 0.63 is under 0.70")'),
}, 'the judge panel\'s judges and their agreement', { optional: 'with judges (a panel)' })

/** The four factors of trace scoring, the keys of its `criteria_scores`. */
export const TRACE_FACTORS = ['complexity', 'novelty', 'tool_diversity', 'outcome_confidence'] as const

/** The scorers' keys in `criteria_scores`: each scorer's type, a repeat as `<type>#2`, `#3`… */
export function scorerKeys(config: Record<string, unknown>): string[] | undefined {
  const preset = config.preset
  const types = typeof preset === 'string' && preset in SCORER_PRESETS
    ? SCORER_PRESETS[preset as keyof typeof SCORER_PRESETS].map(s => s.type)
    : namesIn(config.scorers, 'type')
  if (!types) return undefined
  const keys: string[] = []
  for (const type of types) {
    let key = type
    for (let n = 2; keys.includes(key); n++) key = `${type}#${n}`
    keys.push(key)
  }
  return keys
}
