import type { ExperimentRoundRow } from './rows'
import { JudgeflowError, type Providers, type SerializedError } from '../engine'
import { parseStored } from './stored'
import { experimentSchema, type Experiment, type Judgment, type RoundSummary } from '../engine/experiments'
import { judgeOutput } from '../engine/experiments/judge'
import { checkTargetNode, roundReport, unjudgedVerdict, variantWorkflow, type RoundWorkflow } from '../engine/experiments/round'
import { finalRoundStatuses, RoundFollowers, type RoundSubscriber } from './round-progress'
import type { RoundStatus } from '../engine/experiments/round-statuses'
import { reportWriteFailure } from './runs/run-writer'
import type { RunService } from './runs/run-service'
import type { Store } from './store'

type RoundRun = ExperimentRoundRow['runs'][number]
/** A round's change; its status one of the open or final ones (round-statuses.ts). */
export type RoundPatch = Parameters<Store['experiments']['updateRound']>[1] & { status?: RoundStatus }
type RoundKey = Pick<ExperimentRoundRow, 'id' | 'experimentId' | 'number'>

/** Also checked this often: a run another process took over tells this one nothing. */
const SETTLED_CHECK_MS = 5_000

export interface RoundsDeps {
  store: Store
  runs: RunService
  providers: Providers
}

/** Finished rounds as the report's history: each round's adopted best and its improvement. */
export function historyOf(rounds: ExperimentRoundRow[]): RoundSummary[] {
  return rounds.filter(r => r.status === 'finished' && r.report).map((r) => {
    const report = r.report as { recommendation: { adopt: string }, convergence: { improvements: number[] } }
    return { round: r.number, best: report.recommendation.adopt, improvement: report.convergence.improvements.at(-1) ?? 0 }
  })
}

/**
 * The current best's judgments from the latest finished round that judged it (the current best
 * is not run again), and the earlier rounds as history.
 */
function fromHistory(rounds: ExperimentRoundRow[], currentBest: string): { best: Judgment[], history: RoundSummary[] } {
  const source = [...rounds].reverse().find(r => r.status === 'finished' && r.report && (r.judgments as Judgment[]).some(j => j.variant === currentBest))
  return { best: source ? (source.judgments as Judgment[]).filter(j => j.variant === currentBest) : [], history: historyOf(rounds) }
}

/**
 * Experiment rounds, for the server and the CLI alike: every variant × document × run goes through
 * the run service as a run of its own; the round waits for each by subscribing to its events, then
 * judges every output and stores the report. A round outlives its process: runs resume with the
 * run service, and `resume` follows the open rounds to their end.
 */
export class Rounds {
  private readonly listeners = new Set<(round: RoundKey, patch: RoundPatch) => void>()
  private readonly followers: RoundFollowers

  constructor(private readonly deps: RoundsDeps) {
    this.followers = new RoundFollowers(deps)
  }

  /** Follows a round's progress (`progress` events, then `round.finished`); call the result to stop. */
  follow(experimentId: string, number: number, subscriber: RoundSubscriber): () => void {
    return this.followers.follow(experimentId, number, subscriber)
  }

  /** Hears every change of every round (its status, runs, judgments); call the result to stop. */
  onChange(listener: (round: RoundKey, patch: RoundPatch) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** The experiment's definition, validated; null when there is none. */
  async experiment(id: string): Promise<{ id: string, experiment: Experiment } | null> {
    const row = await this.deps.store.experiments.get(id)
    return row ? { id: row.id, experiment: parseStored(experimentSchema, { ...row.definition, current_best: row.currentBest }, `experiment "${row.id}"`) } : null
  }

  /** Updates a round and tells its followers and the listeners. */
  async save(round: RoundKey, patch: RoundPatch): Promise<void> {
    await this.deps.store.experiments.updateRound(round.id, patch)
    this.followers.changed(round.experimentId, round.number)
    for (const listener of [...this.listeners]) listener(round, patch)
  }

  /** Starts a round: its runs are queued, and the round is judged once they have ended. */
  async start(experimentId: string): Promise<ExperimentRoundRow> {
    const { store, runs } = this.deps
    const found = await this.experiment(experimentId)
    if (!found) throw new JudgeflowError('INVALID_INPUT', `experiment "${experimentId}" does not exist`)
    const { experiment } = found
    const workflow = await this.targetWorkflow(experiment)
    const definition = workflow.definition as RoundWorkflow
    checkTargetNode({ ...definition, name: workflow.name, nodes: definition.nodes ?? [] }, experiment.target.node)
    const { best } = fromHistory(await store.experiments.rounds(experimentId), experiment.current_best)
    const variants = experiment.variants.filter(v => v.id !== experiment.current_best || !best.length)
    const round = await store.experiments.createRound(experimentId, experiment.current_best)
    const started: RoundRun[] = []
    try {
      for (const variant of variants) {
        const variantDefinition = variantWorkflow(definition, experiment.target.node, variant.config)
        for (const document of experiment.documents) {
          for (let run = 1; run <= experiment.runs_per_document; run++) {
            // Each run asks the model anew: the rubric measures the spread between runs. The definition
            // is the variant's, not a stored version's, so the run names its workflow but no version.
            const row = await runs.start({
              definition: variantDefinition, workflowId: workflow.id, workflowVersion: null,
              input: { [experiment.target.input_field]: document.text }, options: { cache: false },
            })
            started.push({ variant: variant.id, document: document.id, run, run_id: row.id })
          }
        }
      }
    }
    catch (error) {
      for (const r of started) void runs.cancelAnywhere(r.run_id).catch(reportWriteFailure)
      await this.save(round, { status: 'failed', runs: started, error: { message: (error as Error).message }, finishedAt: Date.now() })
      throw error
    }
    await this.save(round, { runs: started })
    const ready = { ...round, runs: started }
    void this.finish(ready)
    return ready
  }

  /** Starts a round and resolves with it once it is judged and reported (or failed). */
  async run(experimentId: string, onJudged?: (done: number, total: number) => void): Promise<ExperimentRoundRow> {
    let started: ExperimentRoundRow | undefined
    const judged = onJudged && this.onChange((round, patch) => {
      if (round.id === started?.id && patch.judgments && !patch.status) onJudged(patch.judgments.length, started.runs.length)
    })
    try {
      started = await this.start(experimentId)
      return await this.ended(started)
    }
    finally {
      judged?.()
    }
  }

  /** Waits for the round's runs (also after a restart: runs resume on their own), judges, reports. */
  async finish(round: ExperimentRoundRow): Promise<void> {
    const { store, providers } = this.deps
    try {
      const found = await this.experiment(round.experimentId)
      if (!found) throw new JudgeflowError('INVALID_INPUT', `experiment "${round.experimentId}" does not exist`)
      const { experiment } = found
      // A run that no longer exists (its workflow was deleted) is judged as failed, like any run that left no output.
      await Promise.all(round.runs.map(r => this.deps.runs.whenEnded(r.run_id, SETTLED_CHECK_MS).catch(() => undefined)))
      if ((await store.experiments.round(round.experimentId, round.number))?.status === 'cancelled') return
      await this.save(round, { status: 'judging' })
      const model = experiment.judge_model ?? providers.defaultJudgeModel()
      const judgments: Judgment[] = []
      for (const r of round.runs) {
        const document = experiment.documents.find(d => d.id === r.document)!
        const run = (await store.runs.get(r.run_id))!
        const step = (await store.runs.steps(r.run_id)).filter(s => s.nodeId === experiment.target.node).at(-1)
        const output = (step?.output as { text?: string } | undefined)?.text
        const verdict = run.status !== 'succeeded' || output === undefined
          ? unjudgedVerdict(document, run.status, run.error as SerializedError | null)
          : await judgeOutput({ document, output, scope: experiment.scope }, providers, model)
        judgments.push({ variant: r.variant, document: r.document, run: r.run, ...verdict })
        await this.save(round, { judgments })
      }
      const earlier = (await store.experiments.rounds(round.experimentId)).filter(x => x.number < round.number)
      const { best, history } = fromHistory(earlier, round.currentBest)
      const all = [...best, ...judgments]
      await this.save(round, { status: 'finished', judgments: all, report: roundReport(experiment, round.currentBest, all, history), finishedAt: Date.now() })
    }
    catch (error) {
      await this.save(round, { status: 'failed', error: { message: (error as Error).message }, finishedAt: Date.now() })
    }
  }

  /** Rounds a previous process left running: their runs resume with the run service; judge them when done. */
  async resume(): Promise<number> {
    const open = await this.deps.store.experiments.openRounds()
    for (const round of open) void this.finish(round)
    return open.length
  }

  /** The workflow a round runs (see `findTargetWorkflow`). */
  private targetWorkflow(experiment: Experiment) {
    return findTargetWorkflow(this.deps.store, experiment.target)
  }

  /** Resolves with the round once it has ended, hearing its changes. */
  private ended(round: RoundKey): Promise<ExperimentRoundRow> {
    const current = async () => (await this.deps.store.experiments.round(round.experimentId, round.number))!
    return new Promise((resolve, reject) => {
      const stop = this.onChange((changed, patch) => {
        if (changed.id !== round.id || !patch.status || !finalRoundStatuses.has(patch.status)) return
        stop()
        current().then(resolve, reject)
      })
      // It may have ended before this listened.
      current().then((row) => {
        if (!finalRoundStatuses.has(row.status)) return
        stop()
        resolve(row)
      }, reject)
    })
  }
}

/**
 * The workflow an experiment varies: by id, or by its name (so an experiment file can name a
 * workflow it did not create). Checked when an experiment is created and when a round starts.
 */
export async function findTargetWorkflow(store: Pick<Store, 'workflows'>, target: Pick<Experiment['target'], 'workflow_id'>) {
  const { workflows } = store
  const name = target.workflow_id
  if (!name) throw new JudgeflowError('INVALID_INPUT', 'target.workflow_id: the server runs a stored workflow: give its id or name (workflow_file is for the command line)')
  const byName = (await workflows.list()).find(w => w.name === name)
  const workflow = (await workflows.get(name)) ?? (byName ? await workflows.get(byName.id) : null)
  if (!workflow) throw new JudgeflowError('INVALID_INPUT', `target.workflow_id: no workflow has the id or name "${name}": choose one of the stored workflows`)
  return workflow
}
