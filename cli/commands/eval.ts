import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { createProviders, evaluate, MemoryResponseCache, readEvaluatorConfigFile } from '../../engine'
import { readJsonFile, type Io } from '../io'
import { loadCustomMetrics } from '../metrics'

/** The workspace's evaluator config (agent-output-evaluator-spec FR-003), used when `--config` is not given. */
export function workspaceConfigPath(env: Record<string, string | undefined>): string {
  return join(env.JUDGEFLOW_CONFIG_DIR || 'configs', 'evaluator.toml')
}

/**
 * `judgeflow eval [--config <file.json|.toml>] --input <file.json>`: an Evaluator result as JSON.
 * Without `--config`, the workspace's configs/evaluator.toml. Exit 0 passed, 1 not passed, 2 invalid input or error.
 */
export async function evalCommand(args: string[], io: Io, env: Record<string, string | undefined>): Promise<number> {
  const { values } = parseArgs({ args, options: { config: { type: 'string' }, input: { type: 'string' } } })
  const workspace = workspaceConfigPath(env)
  const configPath = values.config ?? (existsSync(workspace) ? workspace : undefined)
  if (!configPath || !values.input) {
    io.err(`eval needs ${configPath ? 'an input' : values.input ? `a config (there is no ${workspace})` : 'a config and an input'}: judgeflow eval [--config <file.json|file.toml>] --input <file.json>`)
    return 2
  }
  if (!values.config) io.err(`Using the config ${workspace}.`)
  // The person's own --config path is read as given: the config folder limits only workflow steps.
  const config = await readEvaluatorConfigFile(configPath)
  const input = readJsonFile(values.input, 'input')
  await loadCustomMetrics(env)
  const result = await evaluate(config, input, { providers: createProviders({ env, cache: new MemoryResponseCache() }) })
  io.out(JSON.stringify(result, null, 2))
  return result.passed ? 0 : 1
}
