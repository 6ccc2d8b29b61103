/**
 * judgeflow as a library (`import … from 'judgeflow'`): the engine — `runWorkflow`, `evaluate`,
 * the registries and providers — plus a dataset run without the app: a workflow (or an evaluator
 * config) over cases, returning the report the CLI's `judgeflow test` writes. The caller's own
 * product (`target`) and providers (`providers`) take the place of judgeflow's calls.
 */
import { loadConfig, ownSuiteConfig, type JudgeflowConfig } from '../core/config'
import { testDataset } from '../core/dataset-test'
import { openJudgeflow } from '.'
import {
  callerAdapters, createProviders, defaultRegistry, evaluate as evaluateWith, JudgeflowError, runWorkflow as runWorkflowWith,
  type CallerProviders, type EvaluateDeps, type EvaluatorConfigInput, type EvaluatorResult, type ExecuteOptions, type Providers, type RunResult,
  type StepRegistry,
} from '../engine'
import { formatFromName, parseDatasetFile, type DatasetFormat } from '../engine/datasets/files'
import type { DatasetCase } from '../engine/datasets/schema'
import type { DatasetGates } from '../engine/datasets/gates'
import type { DatasetReport } from '../engine/datasets/report'
import { evaluatorWithTarget, registryWithTarget, workflowWithTarget, type Target, type TargetContext, type TargetOutput } from './library-target'

export * from '../engine'
export type { DatasetCase, DatasetFormat, DatasetGates, DatasetReport, JudgeflowConfig, Target, TargetContext, TargetOutput }
/** The report files `judgeflow test` writes (--junit, --html, --markdown, --csv, --jsonl), from a `runDataset` report. */
export { datasetReportToJunit } from '../engine/datasets/junit'
export { datasetReportToHtml } from '../engine/datasets/html'
export { datasetReportToMarkdown, type MarkdownReportOptions } from '../engine/datasets/markdown'
export { datasetResultsToCsv, datasetResultsToJsonl } from '../engine/datasets/results-files'

/** Providers as the library takes them: the caller's own by id (`{ gateway: async (model, request) => '…' }`), or a whole `Providers`. */
export type LibraryProviders = CallerProviders | Providers

interface RunDatasetCommon {
  /** The cases, e.g. from `parseDataset`. A case's `output` is a recorded output, judged with no generation call. */
  cases: DatasetCase[]
  /**
   * The caller's product: called with each case's input (each repeat, each retry), its answer judged
   * in place of the workflow's generating step, or as the `content` an evaluator config judges.
   * A throw errors that case with its message, never a pass.
   */
  target?: Target
  /** The dataset's name in the report; the workflow's name when absent. */
  name?: string
  /** Cases run at once (1–64). */
  concurrency?: number
  /** Times each case runs (1–20). */
  repeat?: number
  /**
   * The gates the report checks; `passed` in each says whether it holds. Each one not given is at its
   * default, as for `judgeflow test` and the API: every case must pass (`min_pass_rate` 1) and none
   * may error (`max_errors` 0); give `min_pass_rate` below 1 to allow failures.
   */
  gates?: DatasetGates
  /** The evaluator step whose score is a case's score (the last evaluator that ran unless given). */
  scoreStep?: string
  /** Settings (keys, limits); read from the process's environment when absent, as the CLI reads them. */
  config?: JudgeflowConfig
  /** The caller's providers by id, named `<id>:<model>` in the workflow or evaluator config, besides openai, anthropic and local. */
  providers?: CallerProviders
}

export type RunDatasetOptions = RunDatasetCommon & (
  | {
    /** The workflow definition each case runs through (as in a workflow file). */
    workflow: Record<string, unknown>
    evaluator?: undefined
    /** The step a `target` (or the cases' recorded outputs) stands in for; by default the one step the evaluators judge. */
    outputStep?: string
  }
  | {
    /** An evaluator config (as `judgeflow test --config` takes) judging each case: its `target` output, or its input's `content`. */
    evaluator: Record<string, unknown>
    workflow?: undefined
    outputStep?: undefined
  }
)

/**
 * Runs every case of a dataset through a workflow, or judges it with an evaluator config alone, in
 * memory (nothing is kept after), and returns the report: counts, pass rate, gates and each case's
 * verdict. A workflow with problems is refused with a JudgeflowError listing them, before any case runs.
 */
export async function runDataset(options: RunDatasetOptions): Promise<DatasetReport> {
  if ((options.workflow === undefined) === (options.evaluator === undefined)) {
    throw new JudgeflowError('INVALID_INPUT', 'runDataset: give a workflow, or an evaluator config (evaluator), not both or neither.')
  }
  const target = options.target
  if (target !== undefined && typeof target !== 'function') throw new JudgeflowError('INVALID_INPUT', 'runDataset: target must be a function, async (input) => output.')
  const recorded = target && options.cases.find(c => c.output !== undefined)
  if (recorded) throw new JudgeflowError('INVALID_INPUT', `runDataset: case "${recorded.id}" holds a recorded output and a target is given: judge the recorded outputs (no target) or call the target (cases without output).`)
  // The caller runs their own suite, as the CLI does: their code, any host, their workflow's variables.
  const config = ownSuiteConfig(options.config ?? loadConfig())
  const adapters = options.providers ? callerAdapters(options.providers) : undefined
  const app = openJudgeflow({ ...config, db: { ...config.db, url: undefined, path: ':memory:' } }, {
    ...(adapters ? { adapters } : {}), ...(target ? { steps: registryWithTarget(target) } : {}),
  })
  try {
    const name = options.name ?? String(options.workflow?.name ?? 'dataset')
    let workflow: Record<string, unknown> | undefined
    if (options.workflow) {
      const definition = target ? workflowWithTarget(options.workflow, options.outputStep, app.providers.providerIds?.() ?? []) : options.workflow
      workflow = { ...definition, name: String(options.workflow.name ?? name) }
    }
    else if (target) {
      workflow = { ...evaluatorWithTarget(options.evaluator, options.cases), name }
    }
    return await testDataset(app, {
      name,
      cases: options.cases,
      target: workflow ? { workflow } : { evaluator: options.evaluator! },
      request: {
        concurrency: options.concurrency,
        repeat: options.repeat,
        gates: options.gates,
        score_step: options.scoreStep,
        ...(options.outputStep && !target ? { output_step: options.outputStep } : {}),
      },
    })
  }
  finally {
    await app.close(0)
  }
}

/** `evaluate`'s options: the engine's, with the providers optional and the caller's own accepted. */
export interface EvaluateOptions extends Omit<EvaluateDeps, 'providers'> {
  /** The caller's providers by id, or a whole `Providers`; the built-in ones with the environment's keys unless given. */
  providers?: LibraryProviders
  /** Settings (keys, default judge); read from the process's environment when absent. */
  settings?: JudgeflowConfig
}

/**
 * Judges one input with an evaluator config (as `judgeflow eval`): `evaluate(config, { content }, { providers })`.
 * The config is typed (write it `satisfies EvaluatorConfigInput` for completion) and still checked when called:
 * one read from a file is refused naming each wrong field.
 * A model named `<id>:<model>` is called through the caller's provider `<id>`; an id no provider has is refused, naming it.
 */
export function evaluate(config: EvaluatorConfigInput, input: unknown, options: EvaluateOptions = {}): Promise<EvaluatorResult> {
  const { providers, settings, ...deps } = options
  return evaluateWith(config, input, { ...deps, providers: providersOf(providers, settings) })
}

/** `runWorkflow`'s options: the engine's, with the registry and providers optional and the caller's providers accepted. */
export interface RunWorkflowOptions extends Omit<ExecuteOptions, 'registry' | 'providers'> {
  registry?: StepRegistry
  /** The caller's providers by id, or a whole `Providers`; the built-in ones with the environment's keys unless given. */
  providers?: LibraryProviders
  /** Settings (keys, default judge); read from the process's environment when absent. */
  settings?: JudgeflowConfig
  resumed?: boolean
}

/** Validates, checks and runs a workflow to its end (models checked against the providers given, the caller's included). */
export function runWorkflow(definition: unknown, options: RunWorkflowOptions = {}): Promise<RunResult> {
  const { providers, settings, registry, ...rest } = options
  return runWorkflowWith(definition, { ...rest, registry: registry ?? defaultRegistry, providers: providersOf(providers, settings) })
}

/** A whole `Providers` as given; else the built-in providers with the settings' keys, and the caller's own. */
function providersOf(given: LibraryProviders | undefined, settings: JudgeflowConfig | undefined): Providers {
  if (given && isProviders(given)) return given
  const config = settings ?? loadConfig()
  return createProviders({
    env: { ...config.providers.keys }, defaultJudge: config.providers.defaultJudge, requireJudge: config.providers.requireJudge, retry: config.retry,
    adapters: given ? callerAdapters(given) : [],
  })
}

function isProviders(given: LibraryProviders): given is Providers {
  const p = given as Partial<Record<keyof Providers, unknown>>
  return typeof p.check === 'function' && typeof p.complete === 'function' && typeof p.embed === 'function' && typeof p.defaultJudgeModel === 'function'
}

/**
 * The cases of a dataset file's text (CSV, JSONL, JSON or YAML), checked as `judgeflow test` checks
 * them; `format` is a format name or a file name whose extension says it.
 */
export function parseDataset(text: string, format: DatasetFormat | string): DatasetCase[] {
  const known = formatFromName(`.${format}`) ?? formatFromName(format)
  if (!known) throw new JudgeflowError('INVALID_INPUT', `parseDataset: the format "${format}" is not known: give csv, jsonl, json or yaml, or a file name ending in one of them.`)
  return parseDatasetFile(text, known, { where: `the dataset (${format})` }).cases
}
