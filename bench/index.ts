import { benchExecutor } from './executor'
import { benchApiThroughput } from './api'
import { benchEvaluator } from './evaluator'
import { benchScorers } from './scorers'
import { benchTrace } from './trace'

const only = process.argv[2]
const benches: Record<string, () => Promise<void>> = { executor: benchExecutor, evaluator: benchEvaluator, scorers: benchScorers, trace: benchTrace, api: benchApiThroughput }
for (const [name, run] of Object.entries(benches)) {
  if (!only || only === name) await run()
}
