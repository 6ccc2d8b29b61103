/** An experiment round on a one-step reviewer, for tests and benchmarks that need a round going on. */
import type { AppServer } from './app-server'

/** Reviews `{{input.document}}` in one LLM step. */
export const reviewer = {
  name: 'Reviewer',
  nodes: [{ id: 'in', type: 'input' }, { id: 'review', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Review {{input.document}}' } }],
  edges: [{ from: 'in', to: 'review' }],
}

/**
 * Saves `reviewer` and an experiment on its review step (variant a as it is, b asking for a careful
 * review; every document with one problem, "unlimited liability"; judged offline by
 * local:heuristic), then starts the experiment's first round: `started` is that POST's answer.
 */
export async function startReviewRound(
  server: AppServer,
  { name, documents, runs_per_document }: { name: string, documents: Array<{ id: string, text: string }>, runs_per_document?: number },
) {
  await server.api('/api/workflows', { body: reviewer })
  const { body: experiment } = await server.api('/api/experiments', { body: {
    name, target: { workflow_id: 'Reviewer', node: 'review' }, variants: [{ id: 'a' }, { id: 'b', config: { prompt: 'Carefully review {{input.document}}' } }],
    current_best: 'a', runs_per_document, judge_model: 'local:heuristic',
    documents: documents.map(({ id, text }) => ({ id, text, problems: [{ id: 'P1', category: 'main', criteria: 'unlimited liability' }] })),
  } })
  const started = await server.api(`/api/experiments/${experiment.id}/rounds`, { method: 'POST' })
  return { experiment, started }
}
