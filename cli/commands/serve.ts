import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { DEFAULT_DB_PATH, loadConfig, processEnv, type Env } from '../../core/config'
import { JudgeflowError } from '../../engine/errors'
import type { Io } from '../io'
import { SERVE_USAGE } from '../usage'
import { COMMANDS } from '../help/commands'
import { packageRoot } from '../package-root'

export { SERVE_USAGE }

/**
 * `judgeflow serve [--port N] [--host H] [--db path] [--no-worker]`: serves the built app and API. From a source checkout as
 * `npm start` does (building it first when it is missing or older than its sources); from an
 * installed package, the `.output/` it ships, at once, with the database in the working directory
 * (JUDGEFLOW_DB, else DEFAULT_DB_PATH). A start that cannot succeed — a bad setting, a port in use,
 * the app or its migrations missing — ends with exit 1 and one sentence, before anything listens.
 * On PostgreSQL the server also executes queued runs unless `--no-worker` (JUDGEFLOW_WORKER=0).
 * The server runs in a process of its own, given its settings as its environment: `env` with
 * `--no-worker` and the loopback default over it (the command's own environment is left as it is).
 */
export async function serveCommand(args: string[], io: Io, env: Env = processEnv()): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: COMMANDS.serve.flags })
  if (positionals.length) throw new JudgeflowError('INVALID_INPUT', `serve takes no arguments but --port, --host, --db and --no-worker (got "${positionals[0]}"): ${SERVE_USAGE}`)
  const serverEnv: Env = { ...env, ...(values['no-worker'] ? { JUDGEFLOW_WORKER: '0' } : {}), ...flagSettings(values) }
  const root = packageRoot()
  // A source checkout serves as `npm start` does (building first when needed).
  if (existsSync(join(root, 'nuxt.config.ts'))) return await runServer(join(root, 'scripts/start.mjs'), serverEnv)
  try {
    const entry = join(root, '.output/server/index.mjs')
    if (!existsSync(entry)) throw new JudgeflowError('INVALID_CONFIG', `the built app is missing from the judgeflow package (no ${entry}): reinstall judgeflow.`)
    // Loopback unless HOST says otherwise, as `npm start`; the server reads these as it starts.
    serverEnv.HOST ??= '127.0.0.1'
    const config = loadConfig(serverEnv)
    await checkPortIsFree(config.server.host, config.server.port)
    io.out(`judgeflow: serving http://${config.server.host || '0.0.0.0'}:${config.server.port} (database ${config.db.url ? 'PostgreSQL (JUDGEFLOW_DATABASE_URL)' : resolve(config.db.path ?? DEFAULT_DB_PATH)})`)
    return await runServer(entry, serverEnv)
  }
  catch (error) {
    io.err(`judgeflow: refusing to start: ${(error as Error).message}`)
    return 1
  }
}

/**
 * The server in a process of its own, started as `node <entry>` (the way it finds the files beside
 * its entry: migrations, worker bundles) with `env` as its environment; its exit code is the command's.
 */
function runServer(entry: string, env: Env): Promise<number> {
  const server = spawn(process.execPath, [entry], { stdio: 'inherit', env })
  const forward = (signal: NodeJS.Signals) => server.kill(signal)
  process.on('SIGINT', forward).on('SIGTERM', forward)
  return new Promise((done) => {
    server.once('exit', (code, signal) => {
      process.off('SIGINT', forward).off('SIGTERM', forward)
      done(code ?? (signal ? 1 : 0))
    })
  })
}

/**
 * The settings --port, --host and --db give, as the variables the server reads (Nitro's NITRO_ ones
 * too, which it reads first): a flag wins over the environment.
 */
function flagSettings(values: { port?: string, host?: string, db?: string }): Env {
  const settings: Env = {}
  if (values.port !== undefined) {
    if (!/^\d{1,5}$/.test(values.port) || Number(values.port) > 65_535) throw new JudgeflowError('INVALID_INPUT', `--port must be a port number from 0 to 65535, not "${values.port}".`)
    settings.PORT = settings.NITRO_PORT = values.port
  }
  if (values.host !== undefined) {
    if (!values.host.trim()) throw new JudgeflowError('INVALID_INPUT', '--host needs an address to listen on, e.g. 127.0.0.1 (this machine only) or 0.0.0.0 (every interface).')
    settings.HOST = settings.NITRO_HOST = values.host
  }
  if (values.db !== undefined) {
    if (!values.db.trim()) throw new JudgeflowError('INVALID_INPUT', '--db needs the path of the SQLite database file.')
    settings.JUDGEFLOW_DB = resolve(values.db)
  }
  return settings
}

/** Refuses a port another process holds, rather than a server that starts and then cannot listen. */
function checkPortIsFree(host: string, port: number): Promise<void> {
  return new Promise((settle, refuse) => {
    const probe = createServer()
    probe.once('error', (error: NodeJS.ErrnoException) => refuse(error.code === 'EADDRINUSE'
      ? new JudgeflowError('INVALID_CONFIG', `port ${port} on ${host || 'every interface'} is in use by another process: stop it or set PORT to a free port.`)
      : error))
    probe.listen({ port, host: host || undefined, exclusive: true }, () => probe.close(() => settle()))
  })
}
