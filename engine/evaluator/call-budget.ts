/**
 * What one evaluation may cost: the provider calls it plans (judges × samples × criteria asked one
 * by one × orders of a comparison × metrics × model-graded assertions) and their estimated cost are
 * checked against the limits before any call, and the calls it makes are counted as they go — a
 * re-ask included — so a config can never make more than the limit, whatever it plans.
 */
import { ASSERT_SET, handlerOf } from '../assertions/registry'
import type { Assertion } from '../assertions/types'
import { JudgeflowError } from '../errors'
import { priceOf } from '../providers/prices'
import type { Providers } from '../providers/types'
import type { EvaluationTypeDefinition } from '../evaluation-types/types'
import type { ResolvedEvaluatorConfig } from './config'
import { isHeuristic } from './context'
import type { ResolvedMetric } from './metrics/resolve'

/** The provider calls one evaluation may make unless JUDGEFLOW_MAX_EVALUATION_CALLS says otherwise. */
export const DEFAULT_MAX_EVALUATION_CALLS = 200
/** Its estimated cost in US dollars unless JUDGEFLOW_MAX_EVALUATION_COST_USD says otherwise. */
export const DEFAULT_MAX_EVALUATION_COST_USD = 1

/** The tokens a judge call is assumed to take: its instructions, the input, and what it answers (as the dataset estimate assumes). */
const JUDGE_INSTRUCTION_TOKENS = 600
const JUDGE_ANSWER_TOKENS = 250

export interface EvaluationLimits {
  /** Provider calls (judge completions and embeddings), re-asks included. */
  maxCalls: number
  /** The estimated cost of the calls planned; a model without a known price is not counted. */
  maxCostUsd: number
}

export interface CallPlan {
  /** Calls by model. */
  byModel: Map<string, number>
  calls: number
  /** How the count is made, said in the refusal. */
  why: string[]
}

type Definition = EvaluationTypeDefinition<any, any>

function modelGradedCalls(list: readonly Assertion[]): number {
  let calls = 0
  for (const assertion of list) {
    if (assertion?.type === ASSERT_SET) calls += modelGradedCalls(assertion.assert ?? [])
    const handler = handlerOf(assertion?.type)
    if (handler?.needs === 'grader' || handler?.needs === 'embeddings') calls++
    if (handler?.alsoEmbeds) calls++
  }
  return calls
}

/** The calls an evaluation plans, by model (none for the offline judge, scorers, traces or metrics computed in code). */
export function plannedCalls(config: ResolvedEvaluatorConfig, definition: Definition, prepared: unknown): CallPlan {
  const byModel = new Map<string, number>()
  const why: string[] = []
  const add = (model: string, calls: number) => {
    if (calls > 0 && !isHeuristic(model)) byModel.set(model, (byModel.get(model) ?? 0) + calls)
  }
  const judges = config.judges ?? [config.model]
  if (config.judges) why.push(`${judges.length} judges`)
  const c = config as unknown as { samples?: number, per_criterion?: boolean, criteria?: unknown[], assert?: unknown }
  if (config.evaluation_type === 'metrics') {
    const metrics = (prepared as ResolvedMetric[]).filter(m => !m.definition.score)
    why.push(`${metrics.length} metrics judged by a model`)
    // In a panel, each judge is asked for every metric a model judges.
    for (const metric of metrics) for (const judge of config.judges ?? [metric.model]) add(judge, 1)
  }
  else if (config.evaluation_type === 'assertions') {
    const graded = Array.isArray(c.assert) ? modelGradedCalls(c.assert as Assertion[]) : 0
    why.push(`${graded} model-graded assertions`)
    for (const judge of judges) add(judge, graded)
  }
  else if (definition.usesJudge) {
    let each = c.samples ?? 1
    if ((c.samples ?? 1) > 1) why.push(`samples: ${c.samples}`)
    if (config.evaluation_type === 'comparison') {
      each *= 2
      why.push('both orders of a comparison')
    }
    if (c.per_criterion && Array.isArray(c.criteria)) {
      each *= c.criteria.length
      why.push(`${c.criteria.length} criteria asked one by one`)
    }
    for (const judge of judges) add(judge, each)
  }
  let calls = 0
  for (const n of byModel.values()) calls += n
  return { byModel, calls, why }
}

/** The estimated cost of a plan, judging `inputChars` characters; null when a model's price is not known. */
export function planCostUsd(plan: CallPlan, inputChars: number): number | null {
  const input = JUDGE_INSTRUCTION_TOKENS + Math.ceil(inputChars / 4)
  let cost = 0
  for (const [model, calls] of plan.byModel) {
    const price = priceOf(model)
    if (!price) return null
    cost += calls * (input * price.input + JUDGE_ANSWER_TOKENS * price.output)
  }
  return cost
}

/** Refuses, before any call, an evaluation whose plan passes a limit. */
export function checkPlan(plan: CallPlan, inputChars: number, limits: EvaluationLimits): void {
  const how = plan.why.length ? ` (${plan.why.join(' × ')})` : ''
  if (plan.calls > limits.maxCalls) {
    throw new JudgeflowError('INVALID_CONFIG', `This evaluation would make ${plan.calls} provider calls${how}, more than the ${limits.maxCalls} one evaluation may make (JUDGEFLOW_MAX_EVALUATION_CALLS): use fewer judges, samples, criteria asked one by one or metrics, or raise the limit.`, {
      details: { planned_calls: plan.calls, max_calls: limits.maxCalls },
    })
  }
  const cost = planCostUsd(plan, inputChars)
  if (cost !== null && cost > limits.maxCostUsd) {
    const usd = Math.round(cost * 1e6) / 1e6
    throw new JudgeflowError('INVALID_CONFIG', `This evaluation is estimated at $${usd} for ${plan.calls} provider calls${how}, more than the $${limits.maxCostUsd} one evaluation may cost (JUDGEFLOW_MAX_EVALUATION_COST_USD): use fewer or cheaper calls, or raise the limit.`, {
      details: { estimate_usd: usd, max_cost_usd: limits.maxCostUsd },
    })
  }
}

/** The providers with every call counted: the call past `maxCalls` is refused, naming the limit. */
export function countedProviders(providers: Providers, maxCalls: number): Providers {
  let made = 0
  const count = () => {
    if (++made > maxCalls) {
      throw new JudgeflowError('INVALID_CONFIG', `This evaluation was stopped at ${maxCalls} provider calls, re-asks included, the most one evaluation may make (JUDGEFLOW_MAX_EVALUATION_CALLS).`, {
        details: { max_calls: maxCalls },
      })
    }
  }
  return {
    check: (...args) => providers.check(...args),
    defaultJudgeModel: () => providers.defaultJudgeModel(),
    defaultJudgeFallback: () => providers.defaultJudgeFallback?.(),
    complete: async (...args) => {
      count()
      return await providers.complete(...args)
    },
    embed: async (...args) => {
      count()
      return await providers.embed(...args)
    },
  }
}
