/**
 * What a dataset run will cost, said before it starts.
 *
 * - From the last run (`basis: "last_run"`): the newest finished run of the same dataset and the
 *   same target whose cost is known; its cost per case run × the case runs asked for.
 * - From the prompts (`basis: "prompts"`), when there is no such run: per case and call, the input
 *   tokens are the prompt's characters / 4 (its `{{input.*}}` references filled from the case, other
 *   references counted empty), plus JUDGE_PROMPT_TOKENS for a judge's instructions and the text it
 *   judges; the output tokens are the step's `max_tokens`, else ASSUMED_OUTPUT_TOKENS (LLM steps) or
 *   JUDGE_OUTPUT_TOKENS (judges). A judge's calls: one per judge of a panel, × 2 for a comparison
 *   (both orders), × its samples, × its metrics for a metric suite, × its criteria when asked per
 *   criterion. The offline judge and code scorers cost nothing. A rough figure, said to be one.
 * - A model without a known price makes the estimate null, naming the model.
 */
import { priceOf } from '../providers/prices'
import type { DatasetCase } from './schema'

export interface CostEstimate {
  /** Null when a model's price is not known (`unpriced` names it). */
  estimate_usd: number | null
  case_runs: number
  basis: 'last_run' | 'prompts'
  /** The calls and tokens the estimate rests on (prompts), or the run it was taken from (last_run). */
  calls?: number
  input_tokens?: number
  output_tokens?: number
  from_dataset_run?: string
  unpriced?: string[]
}

export const ASSUMED_OUTPUT_TOKENS = 400
export const JUDGE_PROMPT_TOKENS = 600
export const JUDGE_OUTPUT_TOKENS = 250

type Node = { id: string, type: string, config?: Record<string, unknown> }
const round8 = (x: number) => Math.round(x * 1e8) / 1e8

/** The last run's cost per case run × the case runs asked for. */
export function estimateFromLastRun(last: { id: string, cost_usd: number, case_runs: number }, caseRuns: number): CostEstimate {
  const perRun = last.case_runs ? last.cost_usd / last.case_runs : 0
  return { estimate_usd: round8(perRun * caseRuns), case_runs: caseRuns, basis: 'last_run', from_dataset_run: last.id }
}

/** The estimate from the prompts' length (see the head of this file). */
export function estimateFromPrompts(
  workflow: { nodes: readonly Node[] }, cases: readonly DatasetCase[], repeat: number, defaultJudge: string,
): CostEstimate {
  let cost = 0
  let calls = 0
  let inputTokens = 0
  let outputTokens = 0
  const unpriced = new Set<string>()
  const spend = (model: string, count: number, input: number, output: number) => {
    if (!count || model.startsWith('local:')) return
    calls += count
    inputTokens += count * input
    outputTokens += count * output
    const price = priceOf(model)
    if (!price) unpriced.add(model)
    else cost += count * (input * price.input + output * price.output)
  }
  for (const c of cases) {
    const fill = (text: unknown) => (typeof text === 'string' ? text.replace(/\{\{\s*input\.([\w-]+)\s*\}\}/g, (_, key: string) => textOf(c.input[key])).replace(/\{\{[^}]*\}\}/g, '') : '')
    const inputChars = Object.values(c.input).reduce<number>((sum, v) => sum + textOf(v).length, 0)
    for (const node of workflow.nodes) {
      const config = node.config ?? {}
      if (node.type === 'llm') {
        const tokens = Math.ceil((fill(config.prompt).length + fill(config.system).length) / 4)
        spend(String(config.model), repeat, tokens, numberOr(config.max_tokens, ASSUMED_OUTPUT_TOKENS))
      }
      else if (node.type === 'evaluator') {
        const judged = judgeCalls(config)
        const input = JUDGE_PROMPT_TOKENS + Math.ceil(inputChars / 4) + ASSUMED_OUTPUT_TOKENS
        const output = numberOr(config.max_tokens, JUDGE_OUTPUT_TOKENS)
        for (const model of judged.models.length ? judged.models : [defaultJudge]) spend(model, repeat * judged.perJudge, input, output)
      }
    }
  }
  return {
    estimate_usd: unpriced.size ? null : round8(cost),
    case_runs: cases.length * repeat,
    basis: 'prompts',
    calls,
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    ...(unpriced.size ? { unpriced: [...unpriced] } : {}),
  }
}

/** An evaluator step's judge models and the calls each makes per case run (0 for code scorers and traces). */
function judgeCalls(config: Record<string, unknown>): { models: string[], perJudge: number } {
  const type = config.evaluation_type
  if (type === 'scorers' || type === 'trace') return { models: [], perJudge: 0 }
  const judges = Array.isArray(config.judges) ? config.judges.map(String) : typeof config.model === 'string' ? [config.model] : []
  let perJudge = numberOr(config.samples, 1) * (type === 'comparison' ? 2 : 1)
  if (type === 'metrics') perJudge *= Array.isArray(config.metrics) ? config.metrics.length : Array.isArray(config.enabled_metrics) ? config.enabled_metrics.length : 3
  if (config.per_criterion && Array.isArray(config.criteria)) perJudge *= config.criteria.length
  if (type === 'assertions') perJudge = Array.isArray(config.assert) ? config.assert.filter(a => /^(llm-|model-graded|g-eval|factuality|answer-relevance|context-|select-best|closed-qa)/.test(String((a as { type?: unknown }).type))).length : 0
  return { models: judges, perJudge }
}

const numberOr = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? value : fallback)
const textOf = (value: unknown) => (typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value))
