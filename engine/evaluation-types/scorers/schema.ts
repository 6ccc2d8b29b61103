import { z } from 'zod'
import { scorerConfigSchema, scorerPresets } from '../../schema/scorers'
import type { ConfigOf } from '../shared-fields'
import type { EvaluationTypeChecks } from '../parts'
import type { ScorerConfig } from '../../schema/scorers'
import { SCORER_PRESETS } from '../../scorers/presets'
import { SCORER_COMPARES } from '../../scorers/compares'
import { scorerOptionPatterns } from '../../scorers/patterns'
import { findReferences } from '../../executor/references'
import { patternProblem } from '../../text/safe-regex'
import type { ConfigProblem } from '../checks'

/** The scorers of a config that compare with `expected` and get no option in its place: where each is listed, and that option. */
function comparingWithExpected(config: { scorers?: ScorerConfig[], preset?: keyof typeof SCORER_PRESETS }): Array<{ name: string, option?: string }> {
  const list = config.preset ? SCORER_PRESETS[config.preset] : config.scorers ?? []
  return list.flatMap((scorer, i) => {
    const options = SCORER_COMPARES[scorer.type]
    if (!options || options.some(key => scorer.options?.[key] !== undefined && scorer.options[key] !== null)) return []
    return [{ name: `"${scorer.type}" (${config.preset ? `preset ${config.preset}` : `scorers[${i}]`})`, option: options[0] }]
  })
}

/**
 * The patterns in the scorers' options that their run would refuse (invalid, or too large for RE2),
 * compiled as the scorers compile them; one with a {{reference}} is checked once the run renders it.
 */
function patternProblems(scorers: readonly ScorerConfig[]): ConfigProblem[] {
  return scorers.flatMap((scorer, i) => scorerOptionPatterns(scorer.type, scorer.options ?? {}).flatMap(({ path, source, flags }) => {
    const problem = findReferences(source).length ? undefined : patternProblem(source, flags)
    return problem ? [{ path: `scorers[${i}].${path}`, message: problem }] : []
  }))
}

export const scorersFields = {
  /** The list, or one of the ready-made presets by name. */
  scorers: z.array(scorerConfigSchema).max(50).optional(),
  preset: z.enum(scorerPresets, { error: `must be one of ${scorerPresets.join(', ')}` }).optional(),
}

export const scorersChecks: EvaluationTypeChecks<ConfigOf<'scorers', typeof scorersFields>> = {
  exclusive: [['scorers', 'preset']],
  resolve(config, problems) {
    if (!config.scorers?.length && !config.preset) problems.push({ path: 'scorers', message: 'give a list of scorers or a preset (standard, strict, operation-focused)' })
    if (config.scorers?.length && config.preset) problems.push({ path: 'preset', message: 'give either scorers or a preset, not both' })
    problems.push(...patternProblems(config.scorers ?? []))
  },
  checkInputs(config, given) {
    const comparing = given.has('expected') ? [] : comparingWithExpected(config)
    if (!comparing.length) return []
    const many = comparing.length > 1
    const option = comparing.find(c => c.option)?.option
    return [{
      path: 'expected',
      message: `is missing, and the scorer${many ? 's' : ''} ${comparing.map(c => c.name).join(', ')} compare${many ? '' : 's'} the output with it: set expected (e.g. {{input.expected}})${option && !many ? ` or the scorer's options.${option}` : ''}`,
    }]
  },
}
