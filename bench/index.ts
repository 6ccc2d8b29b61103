import { spawnSync } from 'node:child_process'
import { benchExecutor } from './executor'
import { benchApiThroughput } from './api'
import { benchEditor } from './editor'
import { benchFollowers } from './followers'
import { benchLoad } from './load'
import { benchLoadPostgres } from './load-postgres'
import { benchEvaluator, benchHeuristic } from './evaluator'
import { benchScorers } from './scorers'
import { benchTrace } from './trace'
import { benchDatasets } from './datasets'
import { benchDatasetEstimate } from './dataset-estimate'
import { benchDatasetRuns } from './dataset-runs'
import { benchQueueWorkers } from './queue-workers'
import { benchDatasetWorkers } from './dataset-workers'
import { benchImports } from './imports'
import { benchCli } from './cli'
import { benchSandbox } from './sandbox'
import { benchHttpGate } from './http-gate'
import { benchOnline } from './online'

const benches: Record<string, () => Promise<void>> = {
  executor: benchExecutor,
  evaluator: benchEvaluator,
  heuristic: benchHeuristic,
  scorers: benchScorers,
  trace: benchTrace,
  api: benchApiThroughput,
  followers: benchFollowers,
  editor: benchEditor,
  load: benchLoad,
  load_postgres: benchLoadPostgres,
  datasets: benchDatasets,
  dataset_estimate: benchDatasetEstimate,
  dataset_runs: benchDatasetRuns,
  queue_workers: benchQueueWorkers,
  dataset_workers: benchDatasetWorkers,
  imports: benchImports,
  cli: benchCli,
  sandbox: benchSandbox,
  http_gate: benchHttpGate,
  online: benchOnline,
}
const only = process.argv[2]

if (only) {
  if (!benches[only]) throw new Error(`unknown benchmark group "${only}"; groups: ${Object.keys(benches).join(', ')}`)
  await benches[only]()
}
else {
  // Each group in its own process, so one group's heap and JIT state do not skew the next.
  for (const name of Object.keys(benches)) {
    const child = spawnSync(process.execPath, [...process.execArgv, import.meta.filename, name], { stdio: 'inherit' })
    if (child.status !== 0) process.exitCode = child.status ?? 1
  }
}
