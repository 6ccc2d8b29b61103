import { defaultRegistry, validateWorkflow } from '../../engine'
import type { JudgeflowConfig } from '../../core/config'
import { readJsonFile, type Io } from '../io'

/** `judgeflow validate <workflow.json>`: every problem with its node; exit 0 valid, 2 invalid. */
export function validateCommand(args: string[], io: Io, config: JudgeflowConfig): number {
  const [file] = args
  if (!file) {
    io.err('validate needs a workflow file: judgeflow validate <workflow.json>')
    return 2
  }
  const result = validateWorkflow(readJsonFile(file, 'workflow', config.maxJsonDepth), defaultRegistry)
  io.out(JSON.stringify({ valid: result.ok, problems: result.problems }, null, 2))
  for (const problem of result.problems) io.err(problem.message)
  return result.ok ? 0 : 2
}
