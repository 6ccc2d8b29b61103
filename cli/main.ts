import type { Env } from '../core/config'
import { COMMANDS, type CommandName } from './help/commands'
import { asksForHelp, commandHelpText } from './help/render'
import { processIo, type Io } from './process-io'
import { DB_USAGE, IMPORT_USAGE, REVIEW_USAGE, SERVE_USAGE, TEST_USAGE, TRACES_USAGE, WORKER_USAGE } from './usage'

// Everything beyond the help texts is loaded when a command runs: `judgeflow --help` and
// `judgeflow <command> --help` start without the engine, the configuration's schemas or their
// packages (zod, yaml).
const USAGE = `judgeflow — LLM quality gates

Usage:
  judgeflow validate <workflow.json>
  judgeflow run <workflow.json> [--input <file.json>] [--input-json '<json>'] [--db <path>] [--no-cache] [--require-judge]
  judgeflow eval [--config <file.json|file.toml>] --input <file.json> [--require-judge]   (default config: configs/evaluator.toml)
  judgeflow experiment report <judgments.json> [--markdown]
  judgeflow backup <file> [--db <path>]
  ${DB_USAGE}
  judgeflow experiment run <experiment.json|.yaml> [--markdown] [--judgments <out.json>]
  ${TEST_USAGE}
  ${IMPORT_USAGE}
  ${TRACES_USAGE}
  ${REVIEW_USAGE}
  ${SERVE_USAGE}
  ${WORKER_USAGE}

judgeflow <command> --help   a command's options, one line each, and examples
judgeflow --version          the installed version

Exit codes: 0 ok (verdict pass or none; eval: passed; test: every gate holds), 1 verdict fail (eval: not passed; test: a gate fails),
2 invalid input or error (test: also more errored cases than --max-errors).
Keys come from the environment: OPENAI_API_KEY, ANTHROPIC_API_KEY (and OPENAI_BASE_URL, ANTHROPIC_BASE_URL).
An evaluator that names no model is graded by local:heuristic when neither key is set (a warning says so);
--require-judge (or JUDGEFLOW_REQUIRE_JUDGE=1) refuses that instead, exit 2.`

/** Runs one command with the configuration read from `env` (the process's environment by default). */
export async function main(argv: string[], io: Io = processIo, env?: Env): Promise<number> {
  const [command, ...args] = argv
  try {
    switch (command) {
      case undefined:
      case '-h':
      case '--help':
        io.out(USAGE)
        return command === undefined ? 2 : 0
      case 'help':
        if (args[0] && isCommand(args[0])) return help(args[0], io)
        io.out(USAGE)
        return 0
      case '-v':
      case '--version':
        io.out((await import('./package-root')).packageVersion())
        return 0
    }
    if (!isCommand(command)) {
      const { unknownCommandMessage } = await import('./help/did-you-mean')
      io.err(command.startsWith('-')
        ? `Unknown option '${command}'. judgeflow --help lists the commands; judgeflow <command> --help their options.`
        : unknownCommandMessage(command, Object.keys(COMMANDS)))
      return 2
    }
    if (asksForHelp(args, COMMANDS[command].flags)) return help(command, io)
    switch (command) {
      case 'serve': return await (await import('./commands/serve')).serveCommand(args, io, env)
      case 'db': return await (await import('./commands/db')).dbCommand(args, io)
    }
    const { envWithFile, loadConfig } = await import('../core/config')
    // Read before the configuration, so that keys from the file reach the providers.
    const envFile = command === 'test' ? (await import('./test-flags')).envFileOf(args) : undefined
    const config = loadConfig(envFile === undefined ? env : envWithFile((await import('./io')).readTextFile(envFile, 'env'), env))
    switch (command) {
      case 'validate': return (await import('./commands/validate')).validateCommand(args, io, config)
      case 'run': return await (await import('./commands/run')).runCommand(args, io, config)
      case 'eval': return await (await import('./commands/eval')).evalCommand(args, io, config)
      case 'experiment': return await (await import('./commands/experiment')).experimentCommand(args, io, config)
      case 'backup': return await (await import('./commands/backup')).backupCommand(args, io, config)
      case 'test': return await (await import('./commands/test')).testCommand(args, io, config, io === processIo && process.stderr.isTTY === true)
      case 'import': return (await import('./commands/import')).importCommand(args, io, config)
      case 'traces': return await (await import('./commands/traces')).tracesCommand(args, io, config)
      case 'review': return await (await import('./commands/review')).reviewCommand(args, io, config)
      case 'worker': return await (await import('./commands/worker')).workerCommand(args, io, config)
    }
    return 2
  }
  catch (error) {
    const { JudgeflowError } = await import('../engine/errors')
    if (error instanceof JudgeflowError) {
      io.err(error.message)
      const problems = error.details as Array<{ message?: string }> | undefined
      if (error.code === 'INVALID_WORKFLOW' && Array.isArray(problems)) for (const p of problems.slice(1)) io.err(String(p.message))
      return 2
    }
    const code = (error as { code?: string }).code
    if (error instanceof TypeError && code?.startsWith('ERR_PARSE_ARGS')) {
      const unknown = code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /^Unknown option '([^']+)'/.exec(error.message)?.[1] : undefined
      if (unknown && command && isCommand(command)) io.err((await import('./help/did-you-mean')).unknownOptionMessage(command, unknown, COMMANDS[command].flags))
      else io.err((await import('../engine/text/sentence')).asSentence(error.message))
      return 2
    }
    io.err(`judgeflow failed unexpectedly: ${(error as Error).message}`)
    return 2
  }
}

function isCommand(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name)
}

function help(command: CommandName, io: Io): number {
  io.out(commandHelpText(command, COMMANDS[command]))
  return 0
}
