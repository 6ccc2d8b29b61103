import { parseArgs } from 'node:util'
import type { JudgeflowConfig } from '../../core/config'
import { noteUnisolatedCode, withApp } from '../app'
import { parseJson, readJsonFile, type Io } from '../io'
import { withRequiredJudge } from '../judge-flag'
import { COMMANDS } from '../help/commands'
import { stepWarningLine, stepWarnings } from '../../engine/executor/step-warnings'

/**
 * `judgeflow run <workflow.json> [--input f] [--input-json j] [--db path] [--require-judge]`: the run as JSON,
 * kept in the database at --db (or JUDGEFLOW_DB) when one is named, else in memory; its steps' warnings on stderr.
 * Exit 0 succeeded with verdict pass or none, 1 verdict fail, 2 invalid input or run error.
 */
export async function runCommand(args: string[], io: Io, config: JudgeflowConfig): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: COMMANDS.run.flags,
  })
  const [file] = positionals
  if (!file) {
    io.err('run needs a workflow file: judgeflow run <workflow.json> [--input <file.json>] [--input-json \'<json>\']')
    return 2
  }
  const definition = readJsonFile(file, 'workflow', config.maxJsonDepth) as Record<string, unknown>
  const input = values['input-json'] !== undefined
    ? parseJson(values['input-json'], '--input-json', config.maxJsonDepth)
    : values.input ? readJsonFile(values.input, 'input', config.maxJsonDepth) : {}
  const options = {
    cache: values['no-cache'] ? false : undefined,
    concurrency: values.concurrency ? Number(values.concurrency) : undefined,
    timeout_ms: values.timeout ? Number(values.timeout) : undefined,
  }
  await noteUnisolatedCode(definition, config, io)
  const { run, result } = await withApp(withRequiredJudge(config, values['require-judge']), values.db ?? config.db.path, app => app.runs.runToEnd({ definition, input, options }))
  const id = run.id
  if (!result) {
    io.err('The run stopped before it could finish.')
    return 2
  }
  const { status, verdict, output, steps, duration_ms } = result
  // Once per run, whatever the steps' attempts: e.g. the offline judge standing in for one with no key.
  for (const warning of stepWarnings(result)) io.err(stepWarningLine(warning))
  io.out(JSON.stringify({ id, status, verdict, output, steps, duration_ms }, null, 2))
  if (result.status !== 'succeeded') {
    io.err(result.error?.message ?? `The run ended ${result.status}.`)
    return 2
  }
  return result.verdict === 'fail' ? 1 : 0
}
