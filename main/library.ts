/**
 * judgeflow as a library (`import … from 'judgeflow'`): the engine — `runWorkflow`, `evaluate`,
 * the registries and providers — plus a dataset run without the app: a workflow over cases,
 * returning the report the CLI's `judgeflow test` writes.
 */
import { loadConfig, type JudgeflowConfig } from '../core/config'
import { openJudgeflow } from '.'
import { JudgeflowError } from '../engine/errors'
import { formatFromName, parseDatasetFile, type DatasetFormat } from '../engine/datasets/files'
import type { DatasetCase } from '../engine/datasets/schema'
import type { DatasetGates } from '../engine/datasets/gates'
import type { DatasetReport } from '../engine/datasets/report'

export * from '../engine'
export type { DatasetCase, DatasetFormat, DatasetGates, DatasetReport, JudgeflowConfig }

export interface RunDatasetOptions {
  /** The workflow definition each case runs through (as in a workflow file). */
  workflow: Record<string, unknown>
  /** The cases, e.g. from `parseDataset`. */
  cases: DatasetCase[]
  /** The dataset's name in the report; the workflow's name when absent. */
  name?: string
  /** Cases run at once (1–64). */
  concurrency?: number
  /** Times each case runs (1–20). */
  repeat?: number
  /** The gates the report checks; `passed` in each says whether it holds. */
  gates?: DatasetGates
  /** The evaluator step whose score is a case's score (the last evaluator that ran unless given). */
  scoreStep?: string
  /** Settings (keys, limits); read from the process's environment when absent, as the CLI reads them. */
  config?: JudgeflowConfig
}

/**
 * Runs every case of a dataset through a workflow, in memory (nothing is kept after), and returns
 * the report: counts, pass rate, gates and each case's verdict. A workflow with problems is refused
 * with a JudgeflowError listing them, before any case runs.
 */
export async function runDataset(options: RunDatasetOptions): Promise<DatasetReport> {
  const config = options.config ?? loadConfig()
  const app = openJudgeflow({ ...config, db: { ...config.db, url: undefined, path: ':memory:' } })
  try {
    const name = options.name ?? String(options.workflow.name ?? 'dataset')
    const dataset = await app.store.datasets.create(name, options.cases)
    const workflow = await app.store.workflows.create({ ...options.workflow, name: String(options.workflow.name ?? name) })
    const started = await app.datasets.start({
      dataset: dataset.id,
      target: { workflow_id: workflow.id },
      concurrency: options.concurrency,
      repeat: options.repeat,
      gates: options.gates,
      score_step: options.scoreStep,
    })
    await app.datasets.whenDone(started.id)
    const row = (await app.store.datasets.getRun(started.id))!
    if (row.status !== 'finished') throw new JudgeflowError('INTERNAL', `the dataset run ${row.status}: ${(row.error as { message?: string } | null)?.message ?? 'no reason given'}`)
    return row.report as unknown as DatasetReport
  }
  finally {
    await app.close(0)
  }
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
