/**
 * What a step's card on the canvas says: one line of what the step does, and after a run what it
 * did (status, time, an evaluator's score and verdict) and which edges carried data. Pure functions.
 */
import { shortText, type StepAttemptView, type StepView } from './runs'

interface NodeLike { id: string, type: string, config: Record<string, unknown> }
interface EdgeLike { from: string, to: string, when?: string }

const OPERATORS: Record<string, string> = { eq: '=', neq: '≠', gt: '>', gte: '≥', lt: '<', lte: '≤', contains: 'contains', matches: 'matches', truthy: 'is truthy' }

/** A value as the card shows it: a reference without its braces and `steps.` prefix, text quoted, else JSON. */
function operand(value: unknown): string {
  if (typeof value === 'string') {
    const reference = /^\{\{\s*([^}]+?)\s*\}\}$/.exec(value)
    if (reference) return reference[1]!.replace(/^steps\./, '')
    return JSON.stringify(value)
  }
  return value === undefined ? '?' : JSON.stringify(value)
}

/** A URL as a card has room for it: without its scheme and query (a query often holds a key). */
function shortUrl(url: string): string {
  return url.replace(/^https?:\/\//i, '').replace(/[?#].*$/s, '')
}

/** What a new step is called until renamed: what it does in a workflow, numbered when taken. */
const STARTING_NAMES: Record<string, string> = { input: 'Input', llm: 'Generate', http: 'Call API', code: 'Call function', evaluator: 'Judge', condition: 'Check', retry: 'Retry', output: 'Output' }
export function startingName(type: string, taken: Iterable<string | undefined>): string {
  const base = STARTING_NAMES[type] ?? type
  const names = new Set(taken)
  if (!names.has(base)) return base
  for (let n = 2; ; n++) if (!names.has(`${base} ${n}`)) return `${base} ${n}`
}

/**
 * What a copy of a step is called: its original's name when that is free (pasted into another
 * workflow), else numbered on: "Judge" → "Judge 2", a copy of "Judge 2" → "Judge 3".
 */
export function copyName(name: string, taken: Iterable<string | undefined>): string {
  const names = new Set(taken)
  if (!names.has(name)) return name
  const numbered = /^(.*\S) (\d+)$/.exec(name)
  const base = numbered ? numbered[1]! : name
  for (let n = numbered ? Number(numbered[2]) + 1 : 2; ; n++) if (!names.has(`${base} ${n}`)) return `${base} ${n}`
}

/**
 * One line of what the step does: the model, the method and URL called, the file a code step calls, the evaluation type and threshold, the condition, the
 * retry's loop (named by its target's label, from `nameOf`, else by id).
 */
export function stepSummary(node: NodeLike, nameOf: (id: string) => string | undefined = () => undefined): string {
  const c = node.config ?? {}
  switch (node.type) {
    case 'input': {
      const fields = c.fields && typeof c.fields === 'object' ? Object.keys(c.fields) : []
      return fields.length ? `fields: ${fields.join(', ')}` : 'the run input'
    }
    case 'llm':
      return typeof c.model === 'string' && c.model ? c.model : 'no model set'
    case 'http':
      return typeof c.url === 'string' && c.url ? `${typeof c.method === 'string' ? c.method.toUpperCase() : 'POST'} ${shortUrl(c.url)}` : 'no URL set'
    case 'code': {
      const file = [c.module, c.python].find(name => typeof name === 'string' && name) as string | undefined
      if (!file) return 'no file set'
      return file === c.module ? file : `python: ${file}`
    }
    case 'evaluator': {
      const type = typeof c.evaluation_type === 'string' ? c.evaluation_type : 'no type'
      return typeof c.pass_threshold === 'number' ? `${type} · pass ≥ ${c.pass_threshold}` : type
    }
    case 'condition': {
      if (c.left === undefined && c.op === undefined) return 'no condition set'
      const op = typeof c.op === 'string' ? OPERATORS[c.op] ?? c.op : '?'
      return c.op === 'truthy' ? `${operand(c.left)} ${op}` : `${operand(c.left)} ${op} ${operand(c.right)}`
    }
    case 'retry':
      return typeof c.target === 'string' ? `retry → ${nameOf(c.target) || c.target} · ≤ ${c.max_attempts ?? '?'} runs` : 'no target set'
    case 'output':
      if (typeof c.verdict === 'string') return `verdict ${c.verdict}`
      if (c.value && typeof c.value === 'object' && !Array.isArray(c.value)) return `{ ${Object.keys(c.value).join(', ')} }`
      return c.value === undefined ? 'the run output' : operand(c.value)
    default:
      return ''
  }
}

/**
 * What a card's title lines hold, whole: the name (else the id) and the type with the id. The card
 * may wrap or cut them; its hover shows this.
 */
export function cardHeading(step: { id: string, label: string, name?: string }): string {
  return step.name ? `${step.name}\n${step.label} · ${step.id}` : `${step.id}\n${step.label}`
}

/** The card's name for screen readers, said once: its type, name and id, and how its run went. */
export function cardAccessibleName(step: { id: string, label: string, name?: string }, runStatus?: string): string {
  return `${step.label} step ${step.name ? `${step.name} (${step.id})` : step.id}${runStatus ? `, ${runStatus}` : ''}`
}

/** One attempt of a step on its card: what it did, and a line saying so. */
export interface AttemptDot {
  attempt: number
  /** 'ran' when it ran (its status says how it ended), else 'skipped' or 'cancelled'. */
  kind: 'ran' | 'skipped' | 'cancelled'
  status: string
  title: string
}

/** A step's run on its card. */
export interface StepRunBadge {
  /** How the step's last attempt that ran ended (a step skipped after running is not "skipped"). */
  status: string
  /** The word on the badge: the status, or what a retry did ("retried", "exhausted"). */
  word: string
  attempt: number
  duration_ms: number | null
  /** An evaluator's overall score and verdict. */
  score: number | null
  passed: boolean | null
  pinned: boolean
  /** Each attempt of the run, when there was more than one. */
  attempts: AttemptDot[]
  /** An output step's value: `line` for the card, `whole` for its title; null for other steps. */
  value: { line: string, whole: string } | null
}

/** What an output step gave ({ verdict, value }), on one line and whole; null for another step's output. */
function outputValue(output: unknown): StepRunBadge['value'] {
  if (!output || typeof output !== 'object' || Array.isArray(output) || !('value' in output)) return null
  if (Object.keys(output).some(key => key !== 'value' && key !== 'verdict')) return null
  const value = (output as { value: unknown }).value
  const whole = typeof value === 'string' ? value : JSON.stringify(value, null, 2) ?? ''
  return { line: shortText(value, 60), whole }
}

const evaluationOf = (output: unknown) => {
  const o = output as { overall_score?: unknown, passed?: unknown } | null
  return o && typeof o === 'object' && typeof o.overall_score === 'number' && typeof o.passed === 'boolean'
    ? { score: o.overall_score, passed: o.passed }
    : null
}

const ran = (a: StepAttemptView) => a.status !== 'skipped' && a.status !== 'cancelled'
const historyOf = (step: StepView | undefined) => (step ? (step.history?.length ? step.history : [step]) : [])

/** What an attempt did in one word: a retry says whether it sent the run back or gave up. */
function wordOf(a: StepAttemptView): string {
  const exhausted = (a.output as { exhausted?: unknown } | null | undefined)?.exhausted
  if (a.status === 'succeeded' && exhausted === true) return 'exhausted'
  if (a.status === 'succeeded' && (a.rerun || exhausted === false)) return 'retried'
  return a.status
}

function dotOf(a: StepAttemptView): AttemptDot {
  const kind = a.status === 'skipped' || a.status === 'cancelled' ? a.status : 'ran'
  const what = a.status === 'skipped' ? 'not reached' : wordOf(a)
  const rerun = (a.rerun as { target?: unknown } | null | undefined)?.target
  const why = a.status === 'skipped' && a.reason ? ` (${a.reason})` : typeof rerun === 'string' ? `, ran ${rerun} again` : ''
  return { attempt: a.attempt, kind, status: a.status, title: `Attempt ${a.attempt}: ${what}${why}` }
}

/** A step's badge from its record: the last attempt that ran, and each attempt when it had more than one. */
function badgeOf(step: StepView): StepRunBadge {
  const history = historyOf(step)
  // A step skipped after it ran (a retry not reached again) is shown as it last ran.
  const shown = [...history].reverse().find(a => a.status !== 'skipped') ?? step
  const evaluation = evaluationOf(shown.output)
  return {
    status: shown.status, word: wordOf(shown), attempt: shown.attempt, duration_ms: shown.duration_ms ?? null,
    score: evaluation?.score ?? null, passed: evaluation?.passed ?? null, pinned: !!shown.pinned,
    attempts: history.length > 1 ? history.map(dotOf) : [],
    value: shown.status === 'succeeded' ? outputValue(shown.output) : null,
  }
}

/** The live statuses of a run being followed, with what its full record adds once it is read. */
export function runBadges(
  live: Readonly<Record<string, { status: string, attempt: number, duration_ms?: number }>>,
  steps: Readonly<Record<string, StepView>> | undefined,
): Record<string, StepRunBadge> {
  const badges: Record<string, StepRunBadge> = {}
  for (const [id, s] of Object.entries(live)) {
    badges[id] = {
      status: s.status, word: s.status, attempt: s.attempt, duration_ms: s.duration_ms ?? null,
      score: null, passed: null, pinned: false, attempts: [], value: null,
    }
  }
  for (const [id, step] of Object.entries(steps ?? {})) badges[id] = badgeOf(step)
  return badges
}

/**
 * The edges that carried data in a run, by id (`from->to:when`), with the branch they carried
 * ('out' for a plain edge): the source succeeded on that branch at least once and the target ran.
 * A retry's loop (`loop:<retry>`) carried data when the retry sent the run back.
 */
export function carriedEdges(
  edges: readonly EdgeLike[], nodes: readonly NodeLike[], steps: Readonly<Record<string, StepView>> | undefined,
): Record<string, string> {
  const carried: Record<string, string> = {}
  if (!steps) return carried
  for (const edge of edges) {
    const from = historyOf(steps[edge.from]).filter(a => a.status === 'succeeded')
    const reached = historyOf(steps[edge.to]).some(ran)
    if (!reached || !from.length) continue
    if (edge.when ? from.some(a => a.branch === edge.when) : true) carried[`${edge.from}->${edge.to}:${edge.when ?? ''}`] = edge.when ?? 'out'
  }
  for (const node of nodes) {
    if (node.type !== 'retry') continue
    const looped = historyOf(steps[node.id]).some(a => a.status === 'succeeded' && (!!a.rerun || (a.output as { exhausted?: unknown } | null)?.exhausted === false))
    if (looped) carried[`loop:${node.id}`] = 'loop'
  }
  return carried
}

/** A duration as a card shows it: ms below a second, else seconds. */
export function formatDuration(ms: number | null): string {
  if (ms === null) return ''
  if (ms < 1) return '<1 ms'
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`
}
