import { parseArgs } from 'node:util'
import { createProviders, defaultRegistry, missingKeyWarnings, validateWorkflow } from '../../engine'
import { setPriceOverrides } from '../../engine/providers/prices'
import type { JudgeflowConfig } from '../../core/config'
import { readJsonFile, type Io } from '../io'
import { COMMANDS } from '../help/commands'

/**
 * `judgeflow validate <workflow.json>`: every problem with its node; exit 0 valid, 2 invalid. The
 * keys its steps would miss here are warnings, as the API answers them: validating calls no model.
 */
export function validateCommand(args: string[], io: Io, config: JudgeflowConfig): number {
  const [file] = parseArgs({ args, allowPositionals: true, options: COMMANDS.validate.flags }).positionals
  if (!file) {
    io.err('validate needs a workflow file: judgeflow validate <workflow.json>')
    return 2
  }
  // A model name near a known one is warned of against the configured prices too, as the server does.
  setPriceOverrides(config.providers.prices)
  const result = validateWorkflow(readJsonFile(file, 'workflow', config.maxJsonDepth), defaultRegistry)
  const providers = createProviders({ env: { ...config.providers.keys } })
  const warnings = result.ok ? missingKeyWarnings(result.workflow, { registry: defaultRegistry, providers }) : []
  io.out(JSON.stringify({ valid: result.ok, problems: result.problems, warnings }, null, 2))
  for (const problem of result.problems) io.err(problem.message)
  for (const warning of warnings) io.err(warning.message)
  return result.ok ? 0 : 2
}
