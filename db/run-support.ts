import { hostname } from 'node:os'
import type { RunEvent, RunResult } from '../engine'

/** Small pieces of the run service's work that need none of its state. */

export type RunFinished = Extract<RunEvent, { type: 'run.finished' }>

/** A write that failed outside any caller's await: logged, never an unhandled rejection. */
export function reportWriteFailure(error: unknown): void {
  console.error(`judgeflow: a database write failed: ${(error as Error).message}`)
}

/** Waits for `work`, or `ms` at most. */
export async function withDeadline(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  await Promise.race([work, new Promise((resolve) => { timer = setTimeout(resolve, ms) })])
  clearTimeout(timer)
}

export function endEvent(status: RunResult['status'], error: RunResult['error']): RunFinished {
  return { type: 'run.finished', at: Date.now(), result: { status, verdict: null, output: null, error, steps: {}, duration_ms: 0 } }
}

/** Whether the process named `host:pid` still runs (a process on another host is assumed to). */
export function ownerIsAlive(owner: string): boolean {
  const [host, pid] = owner.split(':')
  if (host !== hostname()) return true
  try {
    process.kill(Number(pid), 0)
    return true
  }
  catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
