import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import type { JudgeflowConfig } from '../../core/config'
import { evaluate, readEvaluatorConfigFile } from '../../engine'
import { noteUnisolatedCode, withApp } from '../app'
import { readJsonFile, type Io } from '../io'
import { withRequiredJudge } from '../judge-flag'
import { COMMANDS } from '../help/commands'

/** The workspace's evaluator config, used when `--config` is not given: evaluator.toml in the config folder. */
export function workspaceConfigPath(config: JudgeflowConfig): string {
  return join(config.evaluation.configDir, 'evaluator.toml')
}

/**
 * `judgeflow eval [--config <file.json|.toml>] --input <file.json> [--require-judge]`: an Evaluator result as JSON,
 * its warnings also on stderr. Without `--config`, the workspace's configs/evaluator.toml. Exit 0 passed, 1 not passed, 2 invalid input or error.
 */
export async function evalCommand(args: string[], io: Io, settings: JudgeflowConfig): Promise<number> {
  const { values } = parseArgs({ args, options: COMMANDS.eval.flags })
  const workspace = workspaceConfigPath(settings)
  const configPath = values.config ?? (existsSync(workspace) ? workspace : undefined)
  if (!configPath || !values.input) {
    io.err(`eval needs ${configPath ? 'an input' : values.input ? `a config (there is no ${workspace})` : 'a config and an input'}: judgeflow eval [--config <file.json|file.toml>] --input <file.json>`)
    return 2
  }
  if (!values.config) io.err(`Using the config ${workspace}.`)
  // The person's own --config path is read as given: the config folder limits only workflow steps.
  const config = await readEvaluatorConfigFile(configPath)
  const input = readJsonFile(values.input, 'input', settings.maxJsonDepth)
  await noteUnisolatedCode(config, settings, io)
  const result = await withApp(withRequiredJudge(settings, values['require-judge']), undefined, app => evaluate(config, input, { ...app.evaluation, providers: app.providers }))
  // Said where a person reads it too, not only inside the JSON: e.g. the offline judge standing in for one with no key.
  for (const warning of result.warnings ?? []) io.err(`Warning: ${warning}`)
  io.out(JSON.stringify(result, null, 2))
  return result.passed ? 0 : 1
}
