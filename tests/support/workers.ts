import { spawn, type ChildProcess } from 'node:child_process'
import { resolve } from 'node:path'
import { waitFor } from './app-server'

const CLI = resolve(import.meta.dirname, '../../bin/judgeflow.mjs')

export interface WorkerProcess {
  process: ChildProcess
  /** What it wrote to stderr and stdout so far. */
  output(): string
  /** Its exit code once it has exited. */
  exited: Promise<number | null>
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

/**
 * `judgeflow worker` on the database at `url`, once it says it is executing queued runs; from the
 * test's folder unless `cwd`; `nodeArgs` go to Node itself (`--cpu-prof`).
 */
export async function startWorker(
  url: string, env: Record<string, string> = {}, args: string[] = [], cwd?: string, nodeArgs: string[] = [],
): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [...nodeArgs, CLI, 'worker', ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, JUDGEFLOW_DATABASE_URL: url, JUDGEFLOW_LLM_RETRY_BASE_MS: '5', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let text = ''
  child.stdout!.on('data', (chunk: Buffer) => { text += chunk })
  child.stderr!.on('data', (chunk: Buffer) => { text += chunk })
  const exited = new Promise<number | null>(done => child.once('exit', code => done(code)))
  const worker: WorkerProcess = {
    process: child,
    output: () => text,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      return exited
    },
  }
  try {
    await waitFor(() => text.includes('executing queued runs') || child.exitCode !== null, 30_000, 'the worker to start')
  }
  catch (error) {
    await worker.stop('SIGKILL')
    throw new Error(`${(error as Error).message}: ${text}`)
  }
  if (child.exitCode !== null) throw new Error(`the worker exited with ${child.exitCode}: ${text}`)
  return worker
}
