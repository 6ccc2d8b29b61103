/** The run inspector's views of GET /api/runs/:id: pure functions, no framework. */
import type { EvaluatorResult, RankedCandidate } from '../../engine/schema/evaluator'
import { mean, roundScore } from '../../engine/evaluator/arithmetic'
// Types only: the presenter's return type is the API's answer (its fields are plain JSON values).
import type { presentRun } from '../../server/utils/present'

/** GET /api/runs/:id: a run with every step, as the server presents it. */
export type RunDetail = Extract<ReturnType<typeof presentRun>, { steps: unknown }>
type PresentedStep = RunDetail['steps'][string]
type PresentedAttempt = PresentedStep['history'][number]

/** One attempt of one step as the API presents it; fields a view does not read may be absent. */
export type StepAttemptView = Pick<PresentedAttempt, 'attempt' | 'status'> & Partial<PresentedAttempt>
export interface StepView extends StepAttemptView { attempts: number, history: StepAttemptView[] }
/** A run as the views read it: GET /api/runs/:id, of which they need only some fields. */
export type RunView = Pick<RunDetail, 'id' | 'status'> & Partial<Omit<RunDetail, 'id' | 'status' | 'steps'>> & { steps?: Record<string, StepView> }

type Evaluation = Pick<EvaluatorResult, 'passed' | 'overall_score' | 'criteria_scores'> & Partial<EvaluatorResult>

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const textOf = (value: unknown) => (value === undefined || value === null ? null : typeof value === 'string' ? value : JSON.stringify(value))

/** The output as an evaluator result, or null when it is something else. */
export function asEvaluation(output: unknown): Evaluation | null {
  return isObject(output) && typeof output.overall_score === 'number' && typeof output.passed === 'boolean' && isObject(output.criteria_scores)
    ? output as Evaluation
    : null
}

/**
 * What an evaluator's result says about how it was reached — e.g. the offline judge grading because
 * no key was set — for a note on its card; none when it says nothing (or is from before `warnings`).
 */
export function evaluationWarnings(result: { warnings?: unknown }): string[] {
  return Array.isArray(result.warnings) ? result.warnings.filter((w): w is string => typeof w === 'string' && w !== '') : []
}

/** Node ids with their types: the definitions' order first, then steps no definition names. */
function nodeOrder(runs: readonly RunView[]): Map<string, string | null> {
  const order = new Map<string, string | null>()
  const add = (id: string, type: string | null) => { if (!order.get(id)) order.set(id, type) }
  for (const run of runs) {
    const nodes = isObject(run.definition) && Array.isArray(run.definition.nodes) ? run.definition.nodes as unknown[] : []
    for (const node of nodes) if (isObject(node) && typeof node.id === 'string') add(node.id, typeof node.type === 'string' ? node.type : null)
  }
  for (const run of runs) for (const id of Object.keys(run.steps ?? {})) add(id, null)
  return order
}

/** One line for a table cell: an LLM's text, an evaluator's verdict, else compact JSON. */
export function shortText(output: unknown, max = 120): string {
  const evaluation = asEvaluation(output)
  const text = evaluation
    ? [evaluation.passed ? 'passed' : 'failed', evaluation.overall_score.toFixed(2), evaluation.grade && `grade ${evaluation.grade}`,
        evaluation.winner !== undefined && `winner ${evaluation.winner ?? 'none (tie)'}`].filter(Boolean).join(' · ')
    : isObject(output) && typeof output.text === 'string' ? output.text : textOf(output) ?? ''
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

/** Structural equality of JSON-like values; key order does not matter, null and absent are alike. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b) || (a == null && b == null)) return true
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]))
  if (!isObject(a) || !isObject(b)) return false
  const keys = (o: Record<string, unknown>) => Object.keys(o).filter(k => o[k] !== undefined)
  const [ka, kb] = [keys(a), keys(b)]
  return ka.length === kb.length && ka.every(k => sameValue(a[k], b[k]))
}

/** Measurements that differ between two runs producing the same output: timing, caching, tokens. */
export const VOLATILE_OUTPUT_KEYS = ['latency_ms', 'cached', 'usage'] as const

function comparable(output: unknown): unknown {
  if (!isObject(output)) return output
  const copy: Record<string, unknown> = { ...output }
  for (const key of VOLATILE_OUTPUT_KEYS) delete copy[key]
  if (isObject(copy.judge)) {
    const { cached_calls: _cached, ...judge } = copy.judge
    copy.judge = judge
  }
  return copy
}

export interface CompareSide {
  /** null: the node has no step in this run. */
  status: string | null
  attempts: number
  /** The latest attempt's duration. */
  duration_ms: number | null
  /** Every attempt's duration added up. */
  total_ms: number | null
  score: number | null
  passed: boolean | null
  grade: string | null
  text: string
  output: unknown
}
export interface CompareRow {
  node: string
  type: string | null
  a: CompareSide
  b: CompareSide
  statusChanged: boolean
  /** b − a of the evaluator's overall score; null unless both sides have one. */
  scoreDelta: number | null
  /** The latest outputs differ, apart from VOLATILE_OUTPUT_KEYS and the judge's cached-call count. */
  outputChanged: boolean
  /** Status, attempts or output differ. */
  changed: boolean
}
/** A duration for people: ms below a second, else seconds; '—' when unknown. */
export function durationText(ms: number | null): string {
  return ms === null ? '—' : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`
}

export interface RunHeadline { id: string, status: string, verdict: string | null, duration_ms: number | null }
export interface RunComparison {
  rows: CompareRow[]
  summary: {
    nodes: number
    changed: number
    statusChanged: number
    outputChanged: number
    a: RunHeadline
    b: RunHeadline
    verdictChanged: boolean
    /** b − a, ms. */
    durationDelta: number | null
  }
}

function sideOf(step: StepView | undefined): CompareSide {
  const evaluation = asEvaluation(step?.output)
  const durations = (step?.history ?? []).map(h => h.duration_ms).filter((d): d is number => typeof d === 'number')
  return {
    status: step?.status ?? null,
    attempts: step?.attempts ?? 0,
    duration_ms: step?.duration_ms ?? null,
    total_ms: durations.length ? roundScore(durations.reduce((x, y) => x + y, 0)) : null,
    score: evaluation?.overall_score ?? null,
    passed: evaluation?.passed ?? null,
    grade: evaluation?.grade ?? null,
    text: shortText(step?.output),
    output: step?.output,
  }
}

const headline = (run: RunView): RunHeadline => ({ id: run.id, status: run.status, verdict: run.verdict ?? null, duration_ms: run.duration_ms ?? null })

/** Node by node: what changed from run `a` to run `b`. */
export function compareRuns(a: RunView, b: RunView): RunComparison {
  const rows = [...nodeOrder([a, b])].map(([node, type]): CompareRow => {
    const [sa, sb] = [sideOf(a.steps?.[node]), sideOf(b.steps?.[node])]
    const statusChanged = sa.status !== sb.status
    const outputChanged = !sameValue(comparable(sa.output), comparable(sb.output))
    return {
      node, type, a: sa, b: sb, statusChanged, outputChanged,
      scoreDelta: sa.score !== null && sb.score !== null ? roundScore(sb.score - sa.score) : null,
      changed: statusChanged || outputChanged || sa.attempts !== sb.attempts,
    }
  })
  const [ha, hb] = [headline(a), headline(b)]
  return {
    rows,
    summary: {
      nodes: rows.length,
      changed: rows.filter(r => r.changed).length,
      statusChanged: rows.filter(r => r.statusChanged).length,
      outputChanged: rows.filter(r => r.outputChanged).length,
      a: ha, b: hb,
      verdictChanged: ha.verdict !== hb.verdict,
      durationDelta: ha.duration_ms !== null && hb.duration_ms !== null ? roundScore(hb.duration_ms - ha.duration_ms) : null,
    },
  }
}

export interface AttemptScore { score: number, passed: boolean, threshold: number | null }
export interface TimelineStep {
  node: string
  type: string | null
  status: string
  duration_ms: number | null
  /** Why the step was skipped, or why a retry re-ran its target when the run records it. */
  reason: string | null
  /** A retry step that ran: where it sends the run back to, and whether it gave up. */
  retry: { target: string, exhausted: boolean } | null
  evaluation: AttemptScore | null
}
export interface TimelineAttempt { attempt: number, steps: TimelineStep[] }
export interface ScoreSeries { node: string, points: Array<AttemptScore & { attempt: number }> }
export interface AttemptTimeline { attempts: TimelineAttempt[], series: ScoreSeries[] }

function timelineStep(node: string, type: string | null, step: StepAttemptView): TimelineStep {
  const evaluation = asEvaluation(step.output)
  const input = isObject(step.input) ? step.input : {}
  const output = isObject(step.output) ? step.output : {}
  const isRetry = (type === 'retry' || type === null) && typeof input.target === 'string' && typeof output.exhausted === 'boolean'
  const threshold = evaluation?.pass_threshold ?? input.pass_threshold
  return {
    node, type, status: step.status, duration_ms: step.duration_ms ?? null,
    reason: step.reason ?? step.rerun?.reason ?? null,
    retry: isRetry ? { target: input.target as string, exhausted: output.exhausted as boolean } : null,
    evaluation: evaluation && { score: evaluation.overall_score, passed: evaluation.passed, threshold: typeof threshold === 'number' ? threshold : null },
  }
}

const attemptsOf = (step: StepView) => (step.history?.length ? step.history : [step])

/** Each retry's target, and the nodes a re-run of it runs again (the target and everything downstream of it). */
function retryLoops(run: RunView): Array<{ target: string, nodes: Set<string> }> {
  const definition = isObject(run.definition) ? run.definition : {}
  const nodes = Array.isArray(definition.nodes) ? definition.nodes.filter(isObject) : []
  const edges = Array.isArray(definition.edges) ? definition.edges.filter(isObject) : []
  const targets = new Set(nodes.flatMap(n => (n.type === 'retry' && isObject(n.config) && typeof n.config.target === 'string' ? [n.config.target] : [])))
  return [...targets].map((target) => {
    const reached = new Set([target])
    const queue = [target]
    while (queue.length) {
      const from = queue.pop()!
      for (const edge of edges) {
        if (edge.from === from && typeof edge.to === 'string' && !reached.has(edge.to)) {
          reached.add(edge.to)
          queue.push(edge.to)
        }
      }
    }
    return { target, nodes: reached }
  })
}

/**
 * The pass through its retry loop each attempt of each step belongs to. A node's own attempt number
 * counts the times it was reached, so a step first reached in a later pass (the fail output, once
 * the retry before it is skipped) would count 1 there; a step inside a loop belongs to the pass of
 * its target's latest run stored before it. Without the order the steps were stored in, the own
 * attempt numbers stand.
 */
function passes(run: RunView): (node: string, entry: StepAttemptView) => number {
  const steps = Object.values(run.steps ?? {})
  const ordered = steps.length > 0 && steps.every(step => attemptsOf(step).every(entry => typeof entry.seq === 'number'))
  const loops = ordered ? retryLoops(run) : []
  const targetSeqs = new Map(loops.map(loop => [loop.target, run.steps?.[loop.target] ? attemptsOf(run.steps[loop.target]!).map(e => e.seq!) : []]))
  const targetRunsBefore = (target: string, seq: number) => targetSeqs.get(target)!.filter(s => s <= seq).length
  return (node, entry) => Math.max(entry.attempt, ...loops.filter(loop => loop.nodes.has(node)).map(loop => targetRunsBefore(loop.target, entry.seq!)))
}

/**
 * The run by attempt: attempt k holds what each step did in the k-th pass through the retry loop
 * (a step inside the loop is placed by its target's runs), in the order they started; plus each
 * evaluator's score per attempt.
 */
export function attemptTimeline(run: RunView): AttemptTimeline {
  const order = nodeOrder([run])
  const index = new Map([...order.keys()].map((id, i) => [id, i]))
  const passOf = passes(run)
  const byAttempt = new Map<number, Array<TimelineStep & { at: number }>>()
  const series: ScoreSeries[] = []
  for (const [node, type] of order) {
    const step = run.steps?.[node]
    if (!step) continue
    const points: ScoreSeries['points'] = []
    for (const entry of attemptsOf(step)) {
      if (!Number.isInteger(entry.attempt) || entry.attempt < 1) continue
      const item = timelineStep(node, type, entry)
      const attempt = passOf(node, entry)
      const list = byAttempt.get(attempt) ?? byAttempt.set(attempt, []).get(attempt)!
      list.push({ ...item, at: entry.seq ?? entry.started_at ?? entry.finished_at ?? Number.POSITIVE_INFINITY })
      if (item.evaluation) points.push({ attempt, ...item.evaluation })
    }
    if (points.length) series.push({ node, points })
  }
  const attempts = [...byAttempt.keys()].sort((x, y) => x - y).map(attempt => ({
    attempt,
    steps: byAttempt.get(attempt)!
      .sort((x, y) => (x.at - y.at) || index.get(x.node)! - index.get(y.node)!)
      .map(({ at: _at, ...step }) => step),
  }))
  return { attempts, series }
}

export interface CandidateView extends RankedCandidate {
  /** Mean overall score when shown in the given order, and in the reversed order. */
  given: number | null
  reversed: number | null
  /** What the candidate said, when the step's input holds it. */
  text: string | null
  /** The judge's reason for this candidate's scores. */
  reason: string | null
  winner: boolean
}
export interface CandidateComparison {
  /** By rank; tied candidates keep the engine's order. */
  candidates: CandidateView[]
  /** Criteria names: the configured order, then any others. */
  criteria: string[]
  /** null: a tie. */
  winner: string | null
  position_consistency: number | null
  /** What the candidates answered (the step's `context`). */
  context: string | null
  passed: boolean
  pass_threshold: number | null
}

/** Candidate texts by id: the engine names candidates in input order, and its per-candidate reasons keep that order. */
function candidateTexts(result: Evaluation, input: Record<string, unknown>): Map<string, string> {
  const raw = Array.isArray(input.candidates) ? input.candidates : Array.isArray(input.compare_inputs) ? input.compare_inputs : []
  const items = raw.map(item => (isObject(item) && typeof item.text === 'string'
    ? { id: typeof item.id === 'string' ? item.id : null, text: item.text }
    : { id: null, text: textOf(item) ?? '' }))
  const reasonIds = isObject(result.criteria_reasons) ? Object.keys(result.criteria_reasons) : []
  const ids = items.map((item, i) => item.id ?? (reasonIds.length === items.length ? reasonIds[i]! : `candidate_${i + 1}`))
  const texts = new Map(items.map((item, i) => [ids[i]!, item.text]))
  const top = result.ranking?.[0]
  // A mapping that contradicts best_output is wrong: keep only what is certain.
  if (top && typeof result.best_output === 'string' && texts.get(top.id) !== result.best_output) return new Map([[top.id, result.best_output]])
  return texts
}

const meanOfOrder = (scores: readonly number[], parity: 0 | 1) => {
  // Scores alternate given, reversed for each sample.
  const picked = scores.filter((_, i) => i % 2 === parity)
  return picked.length ? roundScore(mean(picked)) : null
}

/** A comparison's candidates side by side; null when the output is not a comparison result. */
export function comparisonView(stepOutput: unknown, stepInput?: unknown): CandidateComparison | null {
  const result = asEvaluation(stepOutput)
  if (!result || !Array.isArray(result.ranking)) return null
  const input = isObject(stepInput) ? stepInput : {}
  const texts = candidateTexts(result, input)
  const reasons: Record<string, unknown> = isObject(result.criteria_reasons) ? result.criteria_reasons : {}
  const winner = typeof result.winner === 'string' ? result.winner : null
  const candidates = result.ranking
    .map((c, i) => ({ c, i }))
    .sort((x, y) => (x.c.rank - y.c.rank) || x.i - y.i)
    .map(({ c }): CandidateView => {
      const [orders, reason] = [c.scores_by_order ?? [], reasons[c.id]]
      return {
        ...c, scores_by_order: orders, given: meanOfOrder(orders, 0), reversed: meanOfOrder(orders, 1),
        text: texts.get(c.id) ?? null, reason: typeof reason === 'string' && reason ? reason : null, winner: c.id === winner,
      }
    })
  const configured = Array.isArray(input.criteria) ? input.criteria.map(c => (isObject(c) && typeof c.name === 'string' ? c.name : null)) : []
  const seen = candidates.flatMap(c => Object.keys(c.criteria_scores ?? {}))
  const criteria = [...new Set([...configured.filter((n): n is string => n !== null && seen.includes(n)), ...seen])]
  return {
    candidates, criteria, winner,
    position_consistency: typeof result.position_consistency === 'number' ? result.position_consistency : null,
    context: textOf(input.context),
    passed: result.passed,
    pass_threshold: typeof result.pass_threshold === 'number' ? result.pass_threshold : null,
  }
}

/** An attempt's cost in US dollars as its output gives it: a number, null (a model without a price), or undefined (no call). */
export function attemptCost(output: unknown): number | null | undefined {
  if (!isObject(output) || !('cost_usd' in output)) return undefined
  return typeof output.cost_usd === 'number' ? output.cost_usd : null
}

/** What the run's calls cost over every attempt of every step; null when one attempt's cost is not known; undefined when none made a call. */
export function runCost(run: RunView): number | null | undefined {
  let total: number | null | undefined
  for (const step of Object.values(run.steps ?? {})) {
    for (const attempt of step.history?.length ? step.history : [step]) {
      const cost = attemptCost(attempt.output)
      if (cost === undefined) continue
      total = total === null || cost === null ? null : (total ?? 0) + cost
    }
  }
  return total === undefined || total === null ? total : Math.round(total * 1e8) / 1e8
}

export { usdText } from '../../engine/providers/prices'
