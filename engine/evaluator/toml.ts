import { readFileSync, statSync } from 'node:fs'
import { JudgeflowError } from '../errors'
import { DEFAULT_MAX_JSON_DEPTH, parseJsonChecked } from '../text/safe-json'
import { parseMetricSuiteToml } from './metric-suite-toml'

export { metricSuiteToToml, parseMetricSuiteToml } from './metric-suite-toml'

const cache = new Map<string, { mtimeMs: number, size: number, config: Record<string, unknown> }>()

/** Reads a JSON or TOML config file; a changed file is read again on the next call, no restart needed. */
export function readEvaluatorConfigFile(path: string): Record<string, unknown> {
  let stat
  try {
    stat = statSync(path)
  }
  catch {
    throw new JudgeflowError('INVALID_INPUT', `Cannot read the config file "${path}": it does not exist.`)
  }
  const hit = cache.get(path)
  if (hit && hit.mtimeMs === stat.mtimeMs && hit.size === stat.size) return hit.config
  const text = readFileSync(path, 'utf8')
  let config: Record<string, unknown>
  if (/\.toml$/i.test(path)) config = parseMetricSuiteToml(text, `the config file "${path}"`)
  else {
    config = parseJsonChecked(text, { maxDepth: DEFAULT_MAX_JSON_DEPTH, where: `The config file "${path}"` }) as Record<string, unknown>
  }
  cache.set(path, { mtimeMs: stat.mtimeMs, size: stat.size, config })
  return config
}
