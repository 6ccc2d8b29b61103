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
 *
 * The estimate is asked as a form changes and before every dataset run, on the server's thread, so
 * it never fills a prompt per case and step: each step's prompt is read once (its own characters,
 * and the input fields it references), each case's input is measured once (a value counts whole, as
 * it is sent), the steps referencing the same fields share one pass over the cases, and the tokens
 * are summed per model in whole numbers and priced once (summing 10 million priced calls drifted by
 * some 1e-8 dollars). 50,000 cases × 200 steps: about 20 ms (`npm run bench -- dataset_estimate`).
 */
import { priceOf } from '../providers/prices'
import { ASSERT_SET, asksGrader } from '../assertions/registry'
import { deterministicTypes, type EvaluationType } from '../schema/evaluation-types'
import { DEFAULT_METRICS } from '../evaluation-types/metrics/spec'
import type { DatasetCase } from './schema'
import { workflowShape } from './estimate-shape'

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
  /**
   * From the prompts, when the workflow's shape leaves the calls open (a condition decided only as
   * the run goes, a retry loop): `estimate_usd` is the high figure, an upper bound, and this the
   * range with the calls at each end; `shape` says why, one sentence each (estimate-shape.ts).
   */
  range?: { low_usd: number | null, high_usd: number | null, low_calls: number, high_calls: number }
  shape?: string[]
}

export const ASSUMED_OUTPUT_TOKENS = 400
export const JUDGE_PROMPT_TOKENS = 600
export const JUDGE_OUTPUT_TOKENS = 250

type Node = { id: string, type: string, config?: Record<string, unknown>, pinned?: readonly unknown[] }
type Edge = { from: string, to: string, when?: string }
const round8 = (x: number) => Math.round(x * 1e8) / 1e8

/** The last run's cost per case run × the case runs asked for. */
export function estimateFromLastRun(last: { id: string, cost_usd: number, case_runs: number }, caseRuns: number): CostEstimate {
  const perRun = last.case_runs ? last.cost_usd / last.case_runs : 0
  return { estimate_usd: round8(perRun * caseRuns), case_runs: caseRuns, basis: 'last_run', from_dataset_run: last.id }
}

/** The estimate from the prompts' length (see the head of this file). */
export function estimateFromPrompts(
  workflow: { nodes: readonly Node[], edges?: readonly Edge[] }, cases: readonly DatasetCase[], repeat: number, defaultJudge: string,
): CostEstimate {
  const shape = workflowShape(workflow, cases)
  const open = shape.groups.some(g => g.high.some((h, i) => h !== g.low[i]))
  const high = new Spending()
  const low = new Spending()
  for (const group of shape.groups) {
    const members = shape.groups.length === 1 ? cases : group.cases.map(k => cases[k]!)
    spend(workflow.nodes, members, repeat, defaultJudge, [[group.high, high], ...(open ? [[group.low, low] as const] : [])])
  }
  const { cost, calls, inputTokens, outputTokens, unpriced } = high.total()
  const price = (c: number) => (unpriced.length ? null : round8(c))
  const lowFigures = open ? low.total() : undefined
  // The shape leaves the calls open only where a step that calls something may or may not run.
  const lowTotal = lowFigures && (lowFigures.calls !== calls || lowFigures.cost !== cost) ? lowFigures : undefined
  return {
    estimate_usd: price(cost),
    case_runs: cases.length * repeat,
    basis: 'prompts',
    calls,
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    ...(unpriced.length ? { unpriced } : {}),
    ...(lowTotal ? { range: { low_usd: price(lowTotal.cost), high_usd: price(cost), low_calls: lowTotal.calls, high_calls: calls } } : {}),
    ...(lowTotal && shape.notes.length ? { shape: shape.notes } : {}),
  }
}

/** The calls of `cases` into each spending, each step's counted as many times per case as its multiplier says. */
function spend(
  nodes: readonly Node[], cases: readonly DatasetCase[], repeat: number, defaultJudge: string,
  into: ReadonlyArray<readonly [readonly number[], Spending]>,
): void {
  if (!cases.length) return
  const n = cases.length
  const generated = promptTokens(nodes, cases)
  // A judge's prompt: its instructions, the case's whole input and the answer it judges, the same for every judge.
  const judgeInput = sumOver(n, i => JUDGE_PROMPT_TOKENS + Math.ceil(generated.inputChars[i]! / 4) + ASSUMED_OUTPUT_TOKENS)
  nodes.forEach((node, index) => {
    const config = node.config ?? {}
    // A pinned step (a recorded output stands in for it) calls nothing.
    if (node.pinned?.length) return
    for (const [times, spending] of into) {
      const runs = repeat * times[index]!
      if (!runs) continue
      if (node.type === 'llm') {
        spending.add(String(config.model), runs * n, runs * generated.byNode.get(index)!, runs * n * numberOr(config.max_tokens, ASSUMED_OUTPUT_TOKENS))
      }
      else if (node.type === 'evaluator') {
        const judged = judgeCalls(config)
        const perCase = runs * judged.perJudge
        const output = numberOr(config.max_tokens, JUDGE_OUTPUT_TOKENS)
        for (const model of judged.models.length ? judged.models : [defaultJudge]) spending.add(model, perCase * n, perCase * judgeInput, perCase * n * output)
      }
    }
  })
}

/** Calls and tokens per model in whole numbers, priced once; models in the order their steps first spend. */
class Spending {
  private readonly models = new Map<string, { calls: number, input: number, output: number }>()

  add(model: string, calls: number, input: number, output: number): void {
    if (!calls || model.startsWith('local:')) return
    const spent = this.models.get(model) ?? { calls: 0, input: 0, output: 0 }
    spent.calls += calls
    spent.input += input
    spent.output += output
    this.models.set(model, spent)
  }

  total() {
    let cost = 0
    let calls = 0
    let inputTokens = 0
    let outputTokens = 0
    const unpriced: string[] = []
    for (const [model, spent] of this.models) {
      calls += spent.calls
      inputTokens += spent.input
      outputTokens += spent.output
      const price = priceOf(model)
      if (!price) unpriced.push(model)
      else cost += spent.input * price.input + spent.output * price.output
    }
    return { cost, calls, inputTokens, outputTokens, unpriced }
  }
}

/**
 * Each LLM step's input tokens summed over the cases (by the step's index), and each case's input
 * characters. A step's tokens for a case are ceil((C + L) / 4): C its prompt's own characters, L
 * those of the input fields it references. Steps referencing the same fields form a group, and
 * ceil((4q + r + L) / 4) = q + ceil((r + L) / 4), so one pass over the cases per residue r of C
 * serves every step of the group.
 */
function promptTokens(nodes: readonly Node[], cases: readonly DatasetCase[]) {
  const steps = nodes.flatMap((node, index) => {
    if (node.type !== 'llm') return []
    const prompt = templateOf(node.config?.prompt)
    const system = templateOf(node.config?.system)
    return [{ index, constant: prompt.constant + system.constant, fields: [...prompt.fields, ...system.fields].sort() }]
  })
  const fields = [...new Set(steps.flatMap(s => s.fields))]
  const sizes = inputSizes(cases, fields)
  const groups = new Map<string, typeof steps>()
  for (const step of steps) {
    const key = step.fields.join('\n')
    groups.set(key, [...(groups.get(key) ?? []), step])
  }
  const byNode = new Map<number, number>()
  const referenced = new Float64Array(cases.length)
  for (const group of groups.values()) {
    const columns = group[0]!.fields.map(f => fields.indexOf(f))
    for (let i = 0; i < cases.length; i++) {
      let sum = 0
      for (const column of columns) sum += sizes.fields[i * fields.length + column]!
      referenced[i] = sum
    }
    const byResidue = [0, 1, 2, 3].map(r => sumOver(cases.length, i => Math.ceil((r + referenced[i]!) / 4)))
    for (const step of group) byNode.set(step.index, cases.length * Math.floor(step.constant / 4) + byResidue[step.constant % 4]!)
  }
  return { byNode, inputChars: sizes.input }
}

/** Each case's input characters (every field as text, or JSON), and those of the named fields, by case then field; one pass over each input. */
function inputSizes(cases: readonly DatasetCase[], fields: readonly string[]) {
  const column = new Map(fields.map((f, k) => [f, k]))
  const input = new Float64Array(cases.length)
  const sizes = new Float64Array(cases.length * fields.length)
  cases.forEach((c, i) => {
    let all = 0
    for (const [key, value] of Object.entries(c.input)) {
      const length = textOf(value).length
      all += length
      const k = column.get(key)
      if (k !== undefined) sizes[i * fields.length + k] = length
    }
    input[i] = all
  })
  return { input, fields: sizes }
}

const INPUT_REFERENCE = /\{\{\s*input\.([\w-]+)\s*\}\}/g
const ANY_REFERENCE = /\{\{[^}]*\}\}/g

/**
 * A prompt's own characters (without its references) and the input fields it references, read once
 * per step. Other references count nothing, and so does an input reference written inside one
 * (`{{ a {{input.b}} }}`), as the estimate has always counted them.
 */
function templateOf(text: unknown): { constant: number, fields: string[] } {
  if (typeof text !== 'string') return { constant: 0, fields: [] }
  // Each input reference stands as one character (no brace) at a known place while the others are found.
  const referenced: Array<{ key: string, at: number }> = []
  let shrunk = 0
  const marked = text.replace(INPUT_REFERENCE, (whole: string, key: string, offset: number) => {
    referenced.push({ key, at: offset - shrunk })
    shrunk += whole.length - 1
    return ' '
  })
  // Other references go whole, with any input reference inside them; both lists are in the text's order.
  const spans = [...marked.matchAll(ANY_REFERENCE)].map(m => [m.index, m.index + m[0].length] as const)
  const fields: string[] = []
  let notOwn = spans.reduce((sum, [from, to]) => sum + to - from, 0)
  let span = 0
  for (const { key, at } of referenced) {
    while (span < spans.length && spans[span]![1] <= at) span++
    if (span < spans.length && spans[span]![0] <= at) continue
    fields.push(key)
    notOwn++
  }
  return { constant: marked.length - notOwn, fields }
}

function sumOver(count: number, term: (i: number) => number): number {
  let sum = 0
  for (let i = 0; i < count; i++) sum += term(i)
  return sum
}

/** An evaluator step's judge models and the calls each makes per case run (0 for the types that use no judge: scorers, traces). */
function judgeCalls(config: Record<string, unknown>): { models: string[], perJudge: number } {
  const type = config.evaluation_type
  if (deterministicTypes.includes(type as EvaluationType)) return { models: [], perJudge: 0 }
  const judges = Array.isArray(config.judges) ? config.judges.map(String) : typeof config.model === 'string' ? [config.model] : []
  let perJudge = numberOr(config.samples, 1) * (type === 'comparison' ? 2 : 1)
  if (type === 'metrics') perJudge *= Array.isArray(config.metrics) ? config.metrics.length : Array.isArray(config.enabled_metrics) ? config.enabled_metrics.length : DEFAULT_METRICS.length
  if (config.per_criterion && Array.isArray(config.criteria)) perJudge *= config.criteria.length
  if (type === 'assertions') perJudge = Array.isArray(config.assert) ? gradedAssertions(config.assert) : 0
  return { models: judges, perJudge }
}

/** How many of the assertions ask the grader (their handler says it needs one), an assert-set's counted inside it. */
function gradedAssertions(list: readonly unknown[]): number {
  let count = 0
  for (const item of list) {
    const assertion = (item ?? {}) as { type?: unknown, assert?: unknown }
    if (assertion.type === ASSERT_SET) count += Array.isArray(assertion.assert) ? gradedAssertions(assertion.assert) : 0
    else if (asksGrader(assertion.type)) count++
  }
  return count
}

const numberOr = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? value : fallback)
const textOf = (value: unknown) => (typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value))
