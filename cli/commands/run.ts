import { parseArgs } from 'node:util'
import { createProviders, defaultRegistry, MemoryResponseCache, runWorkflow, type RunResult } from '../../engine'
import { parseJson, readJsonFile, type Io } from '../io'
import { loadCustomMetrics } from '../metrics'

/**
 * `judgeflow run <workflow.json> [--input f] [--input-json j] [--db path]`: the run as JSON.
 * Exit 0 succeeded with verdict pass or none, 1 verdict fail, 2 invalid input or run error.
 */
export async function runCommand(args: string[], io: Io, env: Record<string, string | undefined>): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      'input': { type: 'string' },
      'input-json': { type: 'string' },
      'db': { type: 'string' },
      'no-cache': { type: 'boolean' },
      'concurrency': { type: 'string' },
      'timeout': { type: 'string' },
    },
  })
  const [file] = positionals
  if (!file) {
    io.err('run needs a workflow file: judgeflow run <workflow.json> [--input <file.json>] [--input-json \'<json>\']')
    return 2
  }
  const definition = readJsonFile(file, 'workflow') as Record<string, unknown>
  const input = values['input-json'] !== undefined
    ? parseJson(values['input-json'], '--input-json')
    : values.input ? readJsonFile(values.input, 'input') : {}
  const options = {
    cache: values['no-cache'] ? false : undefined,
    concurrency: values.concurrency ? Number(values.concurrency) : undefined,
    timeout_ms: values.timeout ? Number(values.timeout) : undefined,
  }
  await loadCustomMetrics(env)
  const keep = values.db ?? env.JUDGEFLOW_DB
  let id: string
  let result: RunResult | undefined
  if (keep) {
    // The database layer is loaded only when the run is kept.
    const { createSqliteResponseCache, openDatabase, resolveDbPath, RunService } = await import('../../db')
    const handle = openDatabase(resolveDbPath(keep, env))
    try {
      const providers = createProviders({ env, cache: createSqliteResponseCache(handle.db) })
      const service = new RunService({ db: handle.db, registry: defaultRegistry, providers })
      const outcome = await service.runToEnd({ definition, input, options })
      id = outcome.run.id
      result = outcome.result
    }
    finally {
      handle.close()
    }
  }
  else {
    id = crypto.randomUUID()
    result = await runWorkflow(definition, {
      registry: defaultRegistry, providers: createProviders({ env, cache: new MemoryResponseCache() }),
      input, cache: options.cache, concurrency: options.concurrency, timeoutMs: options.timeout_ms,
    })
  }
  if (!result) {
    io.err('The run stopped before it could finish.')
    return 2
  }
  io.out(JSON.stringify({ id, status: result.status, verdict: result.verdict, output: result.output, steps: result.steps, duration_ms: result.duration_ms }, null, 2))
  if (result.status !== 'succeeded') {
    io.err(result.error?.message ?? `The run ended ${result.status}.`)
    return 2
  }
  return result.verdict === 'fail' ? 1 : 0
}
