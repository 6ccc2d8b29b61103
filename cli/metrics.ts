import { resolve } from 'node:path'
import { defaultMetricRegistry, loadMetricsFolder, loadScorersFolder } from '../engine'

let loaded = false

/** Custom metrics and scorers from JUDGEFLOW_METRICS_DIR (./metrics) and JUDGEFLOW_SCORERS_DIR (./scorers), loaded once. */
export async function loadCustomMetrics(env: Record<string, string | undefined>): Promise<string[]> {
  if (loaded) return []
  loaded = true
  return [
    ...await loadMetricsFolder(resolve(env.JUDGEFLOW_METRICS_DIR ?? 'metrics'), defaultMetricRegistry),
    ...await loadScorersFolder(resolve(env.JUDGEFLOW_SCORERS_DIR ?? 'scorers')),
  ]
}
