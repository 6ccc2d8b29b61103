import { envWithFile, loadConfig, type Env } from '../core/config'
import { JudgeflowError } from '../engine'
import { processIo, readTextFile, type Io } from './io'
import { backupCommand } from './commands/backup'
import { dbCommand, DB_USAGE } from './commands/db'
import { evalCommand } from './commands/eval'
import { experimentCommand } from './commands/experiment'
import { importCommand, IMPORT_USAGE } from './commands/import'
import { runCommand } from './commands/run'
import { serveCommand, SERVE_USAGE } from './commands/serve'
import { testCommand, TEST_USAGE } from './commands/test'
import { envFileOf } from './test-flags'
import { validateCommand } from './commands/validate'
import { workerCommand, WORKER_USAGE } from './commands/worker'

const USAGE = `judgeflow — LLM quality gates

Usage:
  judgeflow validate <workflow.json>
  judgeflow run <workflow.json> [--input <file.json>] [--input-json '<json>'] [--db <path>] [--no-cache]
  judgeflow eval [--config <file.json|file.toml>] --input <file.json>   (default config: configs/evaluator.toml)
  judgeflow experiment report <judgments.json> [--markdown]
  judgeflow backup <file> [--db <path>]
  ${DB_USAGE}
  judgeflow experiment run <experiment.json|.yaml> [--markdown] [--judgments <out.json>]
  ${TEST_USAGE}
  ${IMPORT_USAGE}
  ${SERVE_USAGE}
  ${WORKER_USAGE}

Exit codes: 0 ok (verdict pass or none; eval: passed; test: every gate holds), 1 verdict fail (eval: not passed; test: a gate fails),
2 invalid input or error (test: also more errored cases than --max-errors).
Keys come from the environment: OPENAI_API_KEY, ANTHROPIC_API_KEY (and OPENAI_BASE_URL, ANTHROPIC_BASE_URL).`

/** Runs one command with the configuration read from `env` (the process's environment by default). */
export async function main(argv: string[], io: Io = processIo, env?: Env): Promise<number> {
  const [command, ...args] = argv
  try {
    // Read before the configuration, so that keys from the file reach the providers.
    const envFile = command === 'test' ? envFileOf(args) : undefined
    const config = loadConfig(envFile === undefined ? env : envWithFile(readTextFile(envFile, 'env'), env))
    switch (command) {
      case 'validate': return validateCommand(args, io, config)
      case 'run': return await runCommand(args, io, config)
      case 'eval': return await evalCommand(args, io, config)
      case 'experiment': return await experimentCommand(args, io, config)
      case 'backup': return await backupCommand(args, io, config)
      case 'db': return await dbCommand(args, io)
      case 'test': return await testCommand(args, io, config, io === processIo && process.stderr.isTTY === true)
      case 'import': return importCommand(args, io, config)
      case 'serve': return await serveCommand(args)
      case 'worker': return await workerCommand(args, io, config)
      case undefined:
      case '-h':
      case '--help':
      case 'help':
        io.out(USAGE)
        return command === undefined ? 2 : 0
      default:
        io.err(`Unknown command "${command}". Commands: validate, run, eval, test, import, experiment, backup, db, serve, worker.`)
        return 2
    }
  }
  catch (error) {
    if (error instanceof JudgeflowError) {
      io.err(error.message)
      const problems = error.details as Array<{ message?: string }> | undefined
      if (error.code === 'INVALID_WORKFLOW' && Array.isArray(problems)) for (const p of problems.slice(1)) io.err(String(p.message))
      return 2
    }
    if (error instanceof TypeError && (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`${error.message}.`)
      return 2
    }
    io.err(`judgeflow failed unexpectedly: ${(error as Error).message}`)
    return 2
  }
}
