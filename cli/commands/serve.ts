import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { JudgeflowError } from '../../engine'

export const SERVE_USAGE = 'judgeflow serve [--no-worker]   (the web app and API; on PostgreSQL also a worker unless --no-worker)'

/**
 * `judgeflow serve [--no-worker]`: serves the built app and API as `npm start` does (building it
 * first when it is missing or older than its sources). On PostgreSQL the server also executes
 * queued runs unless `--no-worker` (JUDGEFLOW_WORKER=0), which leaves them to `judgeflow worker`.
 */
export async function serveCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { 'no-worker': { type: 'boolean' } } })
  if (positionals.length) throw new JudgeflowError('INVALID_INPUT', `serve takes no arguments but --no-worker (got "${positionals[0]}"): ${SERVE_USAGE}`)
  if (values['no-worker']) process.env.JUDGEFLOW_WORKER = '0'
  await import(pathToFileURL(join(resolve(import.meta.dirname, '../..'), 'scripts/start.mjs')).href)
  return 0
}
