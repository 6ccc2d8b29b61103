import { asEvaluation, comparisonView, runCost, type RunDetail } from './runs'

/** What a run came to, said first on its page: its final output and why it got its verdict. */
export interface RunOutcome {
  /** The run's verdict (its output step's), when it has one. */
  verdict: string | null
  /** The run's output as text; else the last answering LLM step's text; null when there is neither. */
  output: string | null
  /** The step the verdict's reason comes from: the last evaluator (in the workflow's order) whose final attempt judged. */
  judge: { step: string, passed: boolean, score: number, threshold: number | null, reason: string } | null
  /** That evaluator's winner when it compared candidates (id null: a tie), with what the winner said. */
  winner: { id: string | null, text: string | null } | null
  /** What the run's calls cost in US dollars: null when a model has no price, undefined when it made none. */
  cost: number | null | undefined
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const text = (value: unknown) => (value === undefined || value === null ? null : typeof value === 'string' ? value : JSON.stringify(value, null, 2))

/** Step ids in the workflow's order (as its definition lists them), then any the definition does not name. */
function stepOrder(run: RunDetail): string[] {
  const nodes = isObject(run.definition) && Array.isArray(run.definition.nodes) ? run.definition.nodes as unknown[] : []
  const listed = nodes.flatMap(n => (isObject(n) && typeof n.id === 'string' ? [n.id] : []))
  return [...new Set([...listed.filter(id => id in run.steps), ...Object.keys(run.steps)])]
}

export function runOutcome(run: RunDetail): RunOutcome {
  const order = stepOrder(run)
  const latest = (id: string) => run.steps[id]!.history.at(-1)
  const answered = order.map(id => latest(id)?.output).filter(o => isObject(o) && typeof o.text === 'string').at(-1) as { text: string } | undefined
  const judged = order.map(id => ({ id, evaluation: asEvaluation(latest(id)?.output) })).filter(j => j.evaluation).at(-1)
  const e = judged?.evaluation
  const compared = judged ? comparisonView(latest(judged.id)?.output, latest(judged.id)?.input) : null
  return {
    verdict: run.verdict ?? null,
    output: text(run.output) ?? answered?.text ?? null,
    judge: judged && e
      ? { step: judged.id, passed: e.passed, score: e.overall_score, threshold: e.pass_threshold ?? null, reason: e.feedback?.trim() || '' }
      : null,
    winner: compared ? { id: compared.winner, text: compared.candidates.find(c => c.winner)?.text ?? null } : null,
    cost: runCost(run),
  }
}
