import { createRound, getExperiment, getRound, getRun, getWorkflow, listOpenRounds, listWorkflows, listRounds, listStepRuns, parseStored, updateRound, type ExperimentRoundRow } from '../../db'
import { finalRunStatuses, JudgeflowError } from '../../engine'
import { experimentReport, experimentSchema, type Experiment, type Judgment, type RoundSummary } from '../../engine/experiments'
import { judgeOutput } from '../../engine/experiments/judge'
import { useJudgeflow } from './context'
import { roundChanged } from './round-progress'

type RoundRun = ExperimentRoundRow['runs'][number]
type RoundPatch = Parameters<typeof updateRound>[2]

/** Updates a round and tells its followers. */
export function saveRound(round: Pick<ExperimentRoundRow, 'id' | 'experimentId' | 'number'>, patch: RoundPatch): void {
  updateRound(useJudgeflow().handle.db, round.id, patch)
  roundChanged(round.experimentId, round.number)
}

/** The experiment's definition, validated; a stored one that no longer parses is a clear error. */
export function experimentOf(id: string): { id: string, experiment: Experiment } {
  const row = getExperiment(useJudgeflow().handle.db, id)
  if (!row) throw new JudgeflowError('NOT_FOUND', `experiment "${id}" does not exist`)
  return { id: row.id, experiment: parseStored(experimentSchema, { ...row.definition, current_best: row.currentBest }, `experiment "${row.id}"`) }
}

/** Finished rounds as the report's history: each round's adopted best and its improvement. */
export function historyOf(rounds: ExperimentRoundRow[]): RoundSummary[] {
  return rounds.filter(r => r.status === 'finished' && r.report).map((r) => {
    const report = r.report as { recommendation: { adopt: string }, convergence: { improvements: number[] } }
    return { round: r.number, best: report.recommendation.adopt, improvement: report.convergence.improvements.at(-1) ?? 0 }
  })
}

/**
 * The current best's judgments from the latest finished round that judged it (seed §5: the
 * current best is not run again), and the earlier rounds as history.
 */
function fromHistory(rounds: ExperimentRoundRow[], currentBest: string): { best: Judgment[], history: RoundSummary[] } {
  const source = [...rounds].reverse().find(r => r.status === 'finished' && r.report && (r.judgments as Judgment[]).some(j => j.variant === currentBest))
  return { best: source ? (source.judgments as Judgment[]).filter(j => j.variant === currentBest) : [], history: historyOf(rounds) }
}

const SETTLED_CHECK_MS = 5_000

/** Starts a round: every variant × document × run goes through the workflow engine as a run of its own. */
export async function startRound(experimentId: string): Promise<ExperimentRoundRow> {
  const { handle, runs } = useJudgeflow()
  const { experiment } = experimentOf(experimentId)
  if (!experiment.target.workflow_id) throw new JudgeflowError('INVALID_INPUT', 'target.workflow_id: the server runs a stored workflow: give its id or name (workflow_file is for the command line)')
  // The workflow by id, or by its name (so an experiment file can name a workflow it did not create).
  const byName = listWorkflows(handle.db).find(w => w.name === experiment.target.workflow_id)
  const workflow = getWorkflow(handle.db, experiment.target.workflow_id) ?? (byName ? getWorkflow(handle.db, byName.id) : null)
  if (!workflow) throw new JudgeflowError('INVALID_INPUT', `target.workflow_id: no workflow has the id or name "${experiment.target.workflow_id}"`)
  const nodes = (workflow.definition.nodes ?? []) as Array<{ id: string, config?: Record<string, unknown> }>
  if (!nodes.some(n => n.id === experiment.target.node)) throw new JudgeflowError('INVALID_INPUT', `target.node: workflow "${workflow.name}" has no node "${experiment.target.node}" (nodes: ${nodes.map(n => n.id).join(', ')})`)
  const { best } = fromHistory(listRounds(handle.db, experimentId), experiment.current_best)
  const variants = experiment.variants.filter(v => v.id !== experiment.current_best || !best.length)
  const round = createRound(handle.db, experimentId, experiment.current_best)
  const started: RoundRun[] = []
  try {
    for (const variant of variants) {
      const definition = { ...workflow.definition, nodes: nodes.map(n => (n.id === experiment.target.node ? { ...n, config: { ...n.config, ...variant.config } } : n)) }
      for (const document of experiment.documents) {
        for (let run = 1; run <= experiment.runs_per_document; run++) {
          // Each run asks the model anew: the rubric measures the spread between runs. The definition
          // is the variant's, not a stored version's, so the run names its workflow but no version.
          const row = await runs.start({ definition, workflowId: workflow.id, workflowVersion: null, input: { [experiment.target.input_field]: document.text }, options: { cache: false } })
          started.push({ variant: variant.id, document: document.id, run, run_id: row.id })
        }
      }
    }
  }
  catch (error) {
    for (const r of started) runs.cancel(r.run_id)
    saveRound(round, { status: 'failed', runs: started, error: { message: (error as Error).message }, finishedAt: Date.now() })
    throw error
  }
  saveRound(round, { runs: started })
  void finishRound({ ...round, runs: started })
  return { ...round, runs: started }
}

/** Resolves when the run has ended: told by the run service, checked now and then for runs another process took over. */
function settled(runId: string): Promise<void> {
  const { handle, runs } = useJudgeflow()
  return new Promise((resolve) => {
    const ended = () => finalRunStatuses.has(getRun(handle.db, runId)?.status ?? 'failed')
    const done = () => {
      stop()
      clearInterval(timer)
      resolve()
    }
    const stop = runs.subscribe(runId, (row) => { if (row.type === 'run.finished') done() })
    const timer = setInterval(() => { if (ended()) done() }, SETTLED_CHECK_MS)
    if (ended()) done()
  })
}

/** Waits for the round's runs (also after a restart: runs resume on their own), judges, reports. */
export async function finishRound(round: ExperimentRoundRow): Promise<void> {
  const { handle, providers } = useJudgeflow()
  try {
    const { experiment } = experimentOf(round.experimentId)
    await Promise.all(round.runs.map(r => settled(r.run_id)))
    if (getRound(handle.db, round.experimentId, round.number)?.status === 'cancelled') return
    saveRound(round, { status: 'judging' })
    const model = experiment.judge_model ?? providers.defaultJudgeModel()
    const judgments: Judgment[] = []
    for (const r of round.runs) {
      const document = experiment.documents.find(d => d.id === r.document)!
      const run = getRun(handle.db, r.run_id)!
      const step = listStepRuns(handle.db, r.run_id).filter(s => s.nodeId === experiment.target.node).at(-1)
      const output = (step?.output as { text?: string } | undefined)?.text
      const context = { document, output: output ?? '', scope: experiment.scope }
      const verdict = run.status !== 'succeeded' || output === undefined
        ? { problems: Object.fromEntries(document.problems.map(p => [p.id, { mark: '×' as const, reason: `the run ${run.status}: no output to judge` }])), bonuses: [], penalties: [] }
        : await judgeOutput(context, providers, model)
      judgments.push({ variant: r.variant, document: r.document, run: r.run, ...verdict })
      saveRound(round, { judgments })
    }
    const rounds = listRounds(handle.db, round.experimentId).filter(x => x.number < round.number)
    const { best, history } = fromHistory(rounds, round.currentBest)
    const all = [...best, ...judgments]
    saveRound(round, { status: 'finished', judgments: all, report: reportFor(experiment, round.currentBest, all, history), finishedAt: Date.now() })
  }
  catch (error) {
    saveRound(round, { status: 'failed', error: { message: (error as Error).message }, finishedAt: Date.now() })
  }
}

export function reportFor(experiment: Experiment, currentBest: string, judgments: Judgment[], history: RoundSummary[]) {
  return experimentReport({ experiment: experiment.name, current_best: currentBest, documents: experiment.documents, judgments, history })
}

/** Rounds a previous process left running: their runs resume with the run service; judge them when done. */
export function resumeRounds(): number {
  const open = listOpenRounds(useJudgeflow().handle.db)
  for (const round of open) void finishRound(round)
  return open.length
}
