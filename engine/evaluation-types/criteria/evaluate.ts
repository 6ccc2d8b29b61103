import type { Criterion, EvaluatorResult } from '../../schema/evaluator'
import { HEURISTIC_CONFIDENCE_CAP } from '../../evaluator/heuristic'
import { agreementFromSd, clamp01, confidenceOf, gradeFor, marginOf, mean, passes, roundScore, sampleSd, weightedAverage } from '../../evaluator/arithmetic'
import { askJudge, mapLimit, type Validation } from '../../evaluator/judge'
import { checkAnswer } from '../../evaluator/prompts'
import { criteriaAnswerCheck, criteriaJsonSchema, criteriaPrompt } from './prompts'
import { isHeuristic, limitOf, requireText, type EvaluationContext } from '../../evaluator/context'
import { baseResult } from '../result'

interface GroupVerdict {
  criteria_scores: Record<string, number>
  criteria_reasons: Record<string, string>
  feedback: string
  suggestions: string[]
}

/** Checks the judge's JSON against the answer's schema: every criterion present, each score in [0, 1]. */
export function validateVerdict(names: readonly string[], includeFeedback = true) {
  const schema = criteriaAnswerCheck(names, includeFeedback)
  return (json: unknown): Validation<GroupVerdict> => {
    const checked = checkAnswer(schema, json, (path, value) => {
      if (path[0] !== 'criteria_scores' || path.length !== 2) return undefined
      return value === undefined
        ? `criterion "${String(path[1])}" is missing from criteria_scores`
        : `criterion "${String(path[1])}" has score ${JSON.stringify(value)}, which is not a number from 0.0 to 1.0`
    })
    if (!checked.ok) return checked
    const { criteria_scores: scores, criteria_reasons: reasons = {}, feedback, suggestions } = checked.value
    return {
      ok: true,
      value: {
        criteria_scores: Object.fromEntries(names.map(name => [name, scores[name] as number])),
        criteria_reasons: Object.fromEntries(names.flatMap(name => (typeof reasons[name] === 'string' ? [[name, reasons[name]]] : []))),
        feedback: typeof feedback === 'string' ? feedback : '',
        suggestions: Array.isArray(suggestions) ? suggestions as string[] : [],
      },
    }
  }
}

async function judgeGroup(ctx: EvaluationContext, group: readonly Criterion[], sample: number, content: string): Promise<GroupVerdict> {
  const { config, input } = ctx
  if (isHeuristic(config.model)) {
    const scores: Record<string, number> = {}
    const reasons: Record<string, string> = {}
    for (const c of group) {
      const verdict = ctx.heuristic.scoreCriterion(c.name, c.description, content)
      scores[c.name] = verdict.score
      reasons[c.name] = verdict.reason
    }
    return { criteria_scores: scores, criteria_reasons: reasons, feedback: '', suggestions: [] }
  }
  const names = group.map(c => c.name)
  return askJudge(ctx.providers, config.model, {
    prompt: criteriaPrompt({
      content, context: input.context, reference: input.reference, criteria: group,
      weights: config.weights, grades: config.grades, includeFeedback: config.include_feedback,
    }),
    jsonSchema: criteriaJsonSchema(names, config.include_feedback),
    validate: validateVerdict(names, config.include_feedback),
    temperature: config.temperature,
    maxTokens: config.max_tokens,
    maxRetries: config.max_retries,
    cache: config.cache,
    cacheSalt: sample ? `sample ${sample}` : undefined,
    signal: ctx.signal,
    what: names.length === 1 ? `criterion "${names[0]}"` : `criteria ${names.join(', ')}`,
  }, ctx.stats)
}

/** scoring, criteria and rubric: per-criterion scores, weighted by judgeflow into the overall score (and graded when there are bands). */
export async function evaluateCriteria(ctx: EvaluationContext): Promise<EvaluatorResult> {
  const { config } = ctx
  const content = requireText(ctx.input.content, 'content')
  const groups = config.per_criterion ? config.criteria!.map(c => [c]) : [config.criteria!]
  const jobs = Array.from({ length: config.samples }, (_, sample) => groups.map(group => ({ sample, group }))).flat()
  const verdicts = await mapLimit(jobs, limitOf(config), job => judgeGroup(ctx, job.group, job.sample, content))

  const perSample = Array.from({ length: config.samples }, (_, sample) => {
    const scores: Record<string, number> = {}
    verdicts.forEach((v, i) => { if (jobs[i]!.sample === sample) Object.assign(scores, v.criteria_scores) })
    return scores
  })
  const criteria_scores = Object.fromEntries(config.criteria!.map(c => [c.name, roundScore(mean(perSample.map(s => s[c.name]!)))]))
  const overall_score = weightedAverage(criteria_scores, config.weights)
  const sampleOverall = perSample.map(s => weightedAverage(s, config.weights))
  const sd = sampleSd(sampleOverall)
  const heuristic = isHeuristic(config.model)
  const reasons: Record<string, string> = {}
  for (const v of verdicts) for (const [name, reason] of Object.entries(v.criteria_reasons)) reasons[name] ??= reason
  let feedback = [...new Set(verdicts.map(v => v.feedback).filter(Boolean))].join(' ')
  let suggestions = [...new Set(verdicts.flatMap(v => v.suggestions))]
  if (heuristic && config.include_feedback) ({ feedback, suggestions } = ctx.heuristic.feedback(content, criteria_scores))
  const factors = {
    agreement: agreementFromSd(sd),
    margin: marginOf(overall_score, config.pass_threshold),
    validity: clamp01(1 - 0.1 * ctx.stats.reasks),
    judge: heuristic ? HEURISTIC_CONFIDENCE_CAP : 1,
  }
  return {
    ...baseResult(ctx),
    passed: passes(overall_score, config.pass_threshold),
    overall_score,
    criteria_scores,
    criteria_reasons: reasons,
    feedback: config.include_feedback ? feedback : '',
    suggestions: config.include_feedback ? suggestions : [],
    grade: config.grades.length ? gradeFor(overall_score, config.grades) : null,
    confidence: confidenceOf(factors),
    confidence_factors: factors,
    ...(config.samples > 1 ? { samples: { overall_scores: sampleOverall, sd: roundScore(sd) } } : {}),
  }
}
