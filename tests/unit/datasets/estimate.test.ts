import { describe, expect, it } from 'vitest'
import { ASSUMED_OUTPUT_TOKENS, JUDGE_OUTPUT_TOKENS, JUDGE_PROMPT_TOKENS, estimateFromPrompts } from '../../../engine/datasets/estimate'
import { mulberry32, type DatasetCase } from '../../../engine/datasets'
import { priceOf } from '../../../engine/providers/prices'
import { evaluationTypeSpecs } from '../../../engine/schema/evaluation-types'
import { DEFAULT_METRICS } from '../../../engine/evaluation-types/metrics/spec'

type Node = { id: string, type: string, config?: Record<string, unknown> }

/**
 * The estimate as it was first written (engine/datasets/estimate.ts before it was made linear), kept
 * as the reference: per case × per step, each prompt filled with the case's values and measured, each
 * call priced and added as it came.
 */
function estimateBefore(
  workflow: { nodes: readonly Node[] }, cases: readonly DatasetCase[], repeat: number, defaultJudge: string,
) {
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
const round8 = (x: number) => Math.round(x * 1e8) / 1e8
const textOf = (value: unknown) => (typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value))

/**
 * A seeded workflow and cases of every kind the estimate reads: prompts with and without input and
 * other references, panels, samples, comparisons, metrics, per-criterion judges, assertions, code
 * scorers, unknown and offline models.
 */
function sample(seed: number) {
  const random = mulberry32(seed)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
  const models = ['openai:gpt-4o-mini', 'openai:gpt-4o', 'anthropic:claude-3-haiku', 'local:heuristic', 'openai:house-model']
  const piece = () => pick(['Answer ', '{{input.question}}', '{{ input.context }}', '{{input.missing}}', '{{draft.text}}', ' with care. ', '{{input.meta}}', '\n', 'Q: '])
  const text = () => Array.from({ length: Math.floor(random() * 6) }, piece).join('')
  const nodes: Node[] = [{ id: 'in', type: 'input', config: {} }]
  for (let k = 0; k < 2 + Math.floor(random() * 8); k++) {
    const kind = pick(['llm', 'llm', 'evaluator', 'evaluator', 'output'])
    if (kind === 'llm') {
      nodes.push({ id: `llm${k}`, type: 'llm', config: { model: pick(models), prompt: text(), ...(random() < 0.5 ? { system: text() } : {}), ...(random() < 0.3 ? { max_tokens: 1 + Math.floor(random() * 900) } : {}) } })
    }
    else if (kind === 'evaluator') {
      const type = pick(['criteria', 'comparison', 'metrics', 'assertions', 'scorers', 'trace'])
      nodes.push({
        id: `judge${k}`,
        type: 'evaluator',
        config: {
          evaluation_type: type,
          ...(random() < 0.3 ? { judges: [pick(models), pick(models)] } : random() < 0.7 ? { model: pick(models) } : {}),
          ...(random() < 0.3 ? { samples: 1 + Math.floor(random() * 4) } : {}),
          ...(type === 'metrics' && random() < 0.5 ? { metrics: ['a', 'b'] } : {}),
          ...(type === 'criteria' && random() < 0.5 ? { per_criterion: true, criteria: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] } : {}),
          ...(type === 'assertions' ? { assert: [{ type: 'llm-rubric' }, { type: 'contains' }, { type: 'factuality' }] } : {}),
          ...(random() < 0.3 ? { max_tokens: 1 + Math.floor(random() * 600) } : {}),
        },
      })
    }
    else nodes.push({ id: `out${k}`, type: 'output', config: {} })
  }
  const cases: DatasetCase[] = Array.from({ length: 1 + Math.floor(random() * 40) }, (_, i) => ({
    id: `c${i}`,
    input: {
      question: 'why '.repeat(Math.floor(random() * 30)),
      ...(random() < 0.7 ? { context: 'some context. '.repeat(Math.floor(random() * 10)) } : {}),
      ...(random() < 0.5 ? { meta: { n: i, tags: ['a', 'b'].slice(0, Math.floor(random() * 3)) } } : {}),
      ...(random() < 0.3 ? { count: Math.floor(random() * 1000) } : {}),
    },
  }))
  return { workflow: { nodes }, cases, repeat: 1 + Math.floor(random() * 3), defaultJudge: pick(models) }
}

describe('the estimate from the prompts', () => {
  it('gives the figures the estimate gave before, on 300 seeded workflows and datasets of every kind', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const { workflow, cases, repeat, defaultJudge } = sample(seed)
      expect(estimateFromPrompts(workflow, cases, repeat, defaultJudge), `seed ${seed}`).toEqual(estimateBefore(workflow, cases, repeat, defaultJudge))
    }
  })

  it('50,000 cases × 200 steps: the exact calls, tokens and cost', () => {
    // Questions of 8 to 11 characters, a quarter of the cases each; 100 LLM steps (gpt-4o) whose prompt
    // is 0-3 characters (25 steps each) and the question; 99 criteria judges (gpt-4o-mini) after them.
    const cases: DatasetCase[] = Array.from({ length: 50_000 }, (_, i) => ({ id: `c${i}`, input: { question: 'q'.repeat(8 + (i % 4)) } }))
    const nodes: Node[] = [{ id: 'in', type: 'input', config: { fields: { question: { type: 'string' } } } }]
    for (let n = 0; n < 100; n++) nodes.push({ id: `llm${n}`, type: 'llm', config: { model: 'openai:gpt-4o', prompt: `${'x'.repeat(n % 4)}{{input.question}}{{in.other}}` } })
    for (let n = 0; n < 99; n++) nodes.push({ id: `judge${n}`, type: 'evaluator', config: { evaluation_type: 'criteria', model: 'openai:gpt-4o-mini', criteria: [{ name: 'helpful' }] } })
    // LLM input tokens: per prompt of c characters, 12,500 × Σ_j ceil((c + 8 + j) / 4) for j = 0..3:
    // 137,500 (c = 0), 150,000, 162,500, 175,000 (c = 3); × 25 steps each = 15,625,000.
    // A judge's input per case: 600 + ceil(question / 4) + 400; summed: 50,000,000 + 12,500 × 11 = 50,137,500; × 99.
    const llmInput = 15_625_000
    const judgeInput = 99 * 50_137_500
    const llmOutput = 100 * 50_000 * ASSUMED_OUTPUT_TOKENS
    const judgeOutput = 99 * 50_000 * JUDGE_OUTPUT_TOKENS
    expect(estimateFromPrompts({ nodes }, cases, 1, 'local:heuristic')).toEqual({
      estimate_usd: 21_526.104375, // 15,625,000 × $2.5/M + 2e9 × $10/M + 4,963,612,500 × $0.15/M + 1,237,500,000 × $0.6/M
      case_runs: 50_000,
      basis: 'prompts',
      calls: 199 * 50_000,
      input_tokens: llmInput + judgeInput,
      output_tokens: llmOutput + judgeOutput,
    })
  })

  it('reads each step\'s prompt once and each case\'s input once, however many steps and cases', () => {
    const promptReads = new Map<string, number>()
    const nodes: Node[] = Array.from({ length: 50 }, (_, n) => {
      const config: Record<string, unknown> = { model: 'openai:gpt-4o-mini' }
      Object.defineProperty(config, 'prompt', { enumerable: true, get: () => {
        promptReads.set(`llm${n}`, (promptReads.get(`llm${n}`) ?? 0) + 1)
        return 'Answer {{input.question}} from {{input.context}}'
      } })
      return { id: `llm${n}`, type: 'llm', config }
    })
    let valueReads = 0
    const cases: DatasetCase[] = Array.from({ length: 1_000 }, (_, i) => ({
      id: `c${i}`,
      input: new Proxy({ question: `question ${i}`, context: 'context', other: [1, 2] }, {
        get: (target, key, receiver) => {
          valueReads++
          return Reflect.get(target, key, receiver) as unknown
        },
      }),
    }))
    const estimate = estimateFromPrompts({ nodes }, cases, 1, 'local:heuristic')
    expect(estimate.calls).toBe(50 * 1_000)
    expect([...promptReads.values()]).toEqual(Array.from({ length: 50 }, () => 1))
    // Three fields per case, each read once whatever the number of steps that reference it.
    expect(valueReads).toBe(3 * 1_000)
  })

  it('counts a case\'s value whole, braces included: it is what the prompt is sent with', () => {
    const nodes: Node[] = [{ id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: '{{input.text}}' } }]
    const estimate = estimateFromPrompts({ nodes }, [{ id: 'a', input: { text: 'x{{y}}z' } }], 1, 'local:heuristic')
    expect(estimate.input_tokens).toBe(2)
  })

  it('counts the assertions that ask the grader as their handlers say: not- forms and those inside an assert-set too, no embedding or code check', () => {
    const assert = [
      { type: 'llm-rubric', value: 'polite' }, { type: 'not-llm-rubric', value: 'rude' }, { type: 'g-eval', value: 'clear' },
      { type: 'model-graded-closedqa', value: 'on topic' }, { type: 'context-faithfulness' }, { type: 'select-best', value: 'best' },
      { type: 'assert-set', assert: [{ type: 'factuality', value: 'Paris' }, { type: 'contains', value: 'x' }] },
      { type: 'similar', value: 'hello' }, { type: 'contains', value: 'y' }, { type: 'javascript', value: 'true' }, { type: 'closed-qa' },
    ]
    const nodes: Node[] = [{ id: 'judge', type: 'evaluator', config: { evaluation_type: 'assertions', model: 'openai:gpt-4o-mini', assert } }]
    const estimate = estimateFromPrompts({ nodes }, [{ id: 'a', input: {} }], 1, 'local:heuristic')
    expect(estimate.calls).toBe(7)
  })

  it('counts no judge call for every evaluation type whose spec uses no judge, and a call for every type that does', () => {
    const calls = (config: Record<string, unknown>) => estimateFromPrompts({ nodes: [{ id: 'judge', type: 'evaluator', config }] }, [{ id: 'a', input: {} }], 1, 'openai:gpt-4o-mini').calls
    const byType = evaluationTypeSpecs.map(spec => [spec.type, calls({ evaluation_type: spec.type, assert: [{ type: 'llm-rubric', value: 'polite' }] }) === 0])
    expect(byType).toEqual(evaluationTypeSpecs.map(spec => [spec.type, !spec.usesJudge]))
    // A metric suite that names no metrics calls the judge for each default one.
    expect(calls({ evaluation_type: 'metrics' })).toBe(DEFAULT_METRICS.length)
  })
})
