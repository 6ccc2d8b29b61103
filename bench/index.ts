import { benchExecutor } from './executor'
import { benchApiThroughput } from './api'

const only = process.argv[2]
const benches: Record<string, () => Promise<void>> = { executor: benchExecutor, api: benchApiThroughput }
for (const [name, run] of Object.entries(benches)) {
  if (!only || only === name) await run()
}
