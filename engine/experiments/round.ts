/**
 * A round in one process, without a database (the command line): every variant × document × run
 * through the workflow engine, each output judged, then the report.
 */
import { runWorkflow } from '../executor/run'
import type { Providers } from '../providers/types'
import type { StepRegistry } from '../steps/registry'
import { judgeOutput } from './judge'
import { experimentReport } from './recommend'
import type { Experiment, Judgment } from './schema'
import { JudgeflowError } from '../errors'

export interface RoundDeps {
  registry: StepRegistry
  providers: Providers
  /** Called after each judged run, for progress. */
  onProgress?: (done: number, total: number) => void
}

export async function runRoundInMemory(experiment: Experiment, workflow: { nodes: Array<{ id: string, config?: Record<string, unknown> }> } & Record<string, unknown>, deps: RoundDeps) {
  const { node, input_field: field } = experiment.target
  if (!workflow.nodes.some(n => n.id === node)) throw new JudgeflowError('INVALID_INPUT', `target.node: the workflow has no node "${node}" (nodes: ${workflow.nodes.map(n => n.id).join(', ')})`)
  const model = experiment.judge_model ?? deps.providers.defaultJudgeModel()
  const total = experiment.variants.length * experiment.documents.length * experiment.runs_per_document
  const judgments: Judgment[] = []
  for (const variant of experiment.variants) {
    const definition = { ...workflow, nodes: workflow.nodes.map(n => (n.id === node ? { ...n, config: { ...n.config, ...variant.config } } : n)) }
    for (const document of experiment.documents) {
      for (let run = 1; run <= experiment.runs_per_document; run++) {
        // Each run asks the model anew: the rubric measures the spread between runs.
        const result = await runWorkflow(definition, { registry: deps.registry, providers: deps.providers, input: { [field]: document.text }, cache: false })
        const output = (result.steps[node]?.output as { text?: string } | undefined)?.text
        const verdict = result.status !== 'succeeded' || output === undefined
          ? { problems: Object.fromEntries(document.problems.map(p => [p.id, { mark: '×' as const, reason: `the run ${result.status}${result.error ? `: ${result.error.message}` : ''}` }])), bonuses: [], penalties: [] }
          : await judgeOutput({ document, output, scope: experiment.scope }, deps.providers, model)
        judgments.push({ variant: variant.id, document: document.id, run, ...verdict })
        deps.onProgress?.(judgments.length, total)
      }
    }
  }
  return { judgments, report: experimentReport({ experiment: experiment.name, current_best: experiment.current_best, documents: experiment.documents, judgments }) }
}
