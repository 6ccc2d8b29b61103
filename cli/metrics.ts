import { resolve } from 'node:path'
import { defaultMetricRegistry, loadMetricsFolder } from '../engine'

let loaded = false

/** Custom metrics from JUDGEFLOW_METRICS_DIR (default ./metrics), loaded once. */
export async function loadCustomMetrics(env: Record<string, string | undefined>): Promise<string[]> {
  if (loaded) return []
  loaded = true
  return loadMetricsFolder(resolve(env.JUDGEFLOW_METRICS_DIR ?? 'metrics'), defaultMetricRegistry)
}
