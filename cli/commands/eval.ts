import { parseArgs } from 'node:util'
import { createProviders, evaluate, MemoryResponseCache, readEvaluatorConfigFile } from '../../engine'
import { readJsonFile, type Io } from '../io'
import { loadCustomMetrics } from '../metrics'

/**
 * `judgeflow eval --config <file.json|.toml> --input <file.json>`: an Evaluator result as JSON.
 * Exit 0 passed, 1 not passed, 2 invalid input or error.
 */
export async function evalCommand(args: string[], io: Io, env: Record<string, string | undefined>): Promise<number> {
  const { values } = parseArgs({ args, options: { config: { type: 'string' }, input: { type: 'string' } } })
  if (!values.config || !values.input) {
    io.err('eval needs a config and an input: judgeflow eval --config <file.json|file.toml> --input <file.json>')
    return 2
  }
  const config = await readEvaluatorConfigFile(values.config)
  const input = readJsonFile(values.input, 'input')
  await loadCustomMetrics(env)
  const result = await evaluate(config, input, { providers: createProviders({ env, cache: new MemoryResponseCache() }) })
  io.out(JSON.stringify(result, null, 2))
  return result.passed ? 0 : 1
}
