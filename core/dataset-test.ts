import { JudgeflowError } from '../engine'
import type { DatasetCase, DatasetReport } from '../engine/datasets'
import type { DatasetRunProgress, DatasetRuns } from './datasets'
import type { DatasetRunRequest } from './dataset-run-request'
import type { DatasetRunRow } from './rows'
import type { Store } from './store'

/**
 * A dataset run from cases in hand, to its report: what `judgeflow test` runs for a file and the
 * library's `runDataset` runs for its caller. The gates are the request's, each one not given at
 * its default (DEFAULT_GATES in dataset-run-request.ts), as for a run the API starts.
 */
export interface DatasetTest {
  /** The dataset's name: a dataset kept under it (`judgeflow test --db`) takes these cases as its next version. */
  name: string
  cases: DatasetCase[]
  /** A workflow definition, saved under its own name (the dataset's without one), or an evaluator config judged alone. */
  target: { workflow: Record<string, unknown> } | { evaluator: Record<string, unknown> }
  /** The rest of the request. */
  request?: Omit<DatasetRunRequest, 'dataset' | 'target'>
  /** Hears the run once it started (its estimate is in its options). */
  onStart?: (started: DatasetRunRow) => void
  /** Hears the run's progress at each case. */
  onProgress?: (progress: DatasetRunProgress) => void
}

/**
 * Keeps the cases as the dataset's next version (a new dataset the first time), saves the workflow,
 * starts the run, waits for its end and returns its report. The app is the caller's: opened for
 * this run (in memory, or the CLI's --db) and closed after by the caller.
 */
export async function testDataset(app: { store: Store, datasets: DatasetRuns }, test: DatasetTest): Promise<DatasetReport> {
  const { store, datasets } = app
  const known = await store.datasets.findByName(test.name)
  const dataset = (known ? await store.datasets.update(known.id, { cases: test.cases }) : null) ?? await store.datasets.create(test.name, test.cases)
  let target: DatasetRunRequest['target']
  if ('workflow' in test.target) {
    const definition = test.target.workflow
    target = { workflow_id: (await store.workflows.create({ ...definition, name: String(definition.name ?? test.name) })).id }
  }
  else {
    target = { evaluator: test.target.evaluator }
  }
  const started = await datasets.start({ ...test.request, dataset: dataset.id, target })
  test.onStart?.(started)
  const stop = test.onProgress ? datasets.subscribe(started.id, test.onProgress) : undefined
  try {
    await datasets.whenDone(started.id)
  }
  finally {
    stop?.()
  }
  const row = (await store.datasets.getRun(started.id))!
  if (row.status !== 'finished') throw new JudgeflowError('INTERNAL', `the dataset run ${row.status}: ${(row.error as { message?: string } | null)?.message ?? 'no reason given'}`)
  return row.report as unknown as DatasetReport
}
