import { readFileSync, statSync } from 'node:fs'
import { parse } from 'smol-toml'
import { JudgeflowError } from '../errors'

/**
 * The metric suite's TOML (agent-output-evaluator-spec): `[llm_default]` and `[[metrics]]`
 * (also `[[metric]]`), each metric with name, weight, model (or provider + model),
 * system_instruction, temperature, max_tokens, max_retries. Top-level `default_model` /
 * `default_provider` are read as `[llm_default]` model / provider. Other top-level keys
 * (pass_threshold, include_feedback, concurrency, sequential…) are evaluator settings.
 */
export function parseMetricSuiteToml(text: string, source = 'the TOML config'): Record<string, unknown> {
  let data: Record<string, unknown>
  try {
    data = parse(text) as Record<string, unknown>
  }
  catch (error) {
    throw new JudgeflowError('INVALID_CONFIG', `${source} is not valid TOML: ${(error as Error).message.split('\n')[0]}`)
  }
  const { metrics, metric, llm_default, default_model, default_provider, ...rest } = data
  if (metrics !== undefined && metric !== undefined) throw new JudgeflowError('INVALID_CONFIG', `${source} has both [[metrics]] and [[metric]]: use one`)
  const llmDefault = { ...(llm_default as Record<string, unknown> | undefined) }
  if (default_model !== undefined) llmDefault.model ??= default_model
  if (default_provider !== undefined) llmDefault.provider ??= default_provider
  return {
    evaluation_type: 'metrics',
    ...rest,
    ...(Object.keys(llmDefault).length ? { llm_default: llmDefault } : {}),
    ...(metrics ?? metric ? { metrics: metrics ?? metric } : {}),
  }
}

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
    try {
      config = JSON.parse(text)
    }
    catch (error) {
      throw new JudgeflowError('INVALID_INPUT', `The config file "${path}" is not valid JSON: ${(error as Error).message}.`)
    }
  }
  cache.set(path, { mtimeMs: stat.mtimeMs, size: stat.size, config })
  return config
}
