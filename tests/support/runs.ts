/** Waiting for a run to end, by hearing it end rather than polling: one helper for unit and integration tests. */
import type { RunService } from '../../core'
import type { RunRow } from '../../db'
import { finalRunStatuses } from '../../engine'
import { waitFor, type AppServer } from './app-server'

/**
 * The run once it has ended (succeeded, failed, cancelled or interrupted): its `run.finished` heard
 * from the run service, or the stored run when it had ended already.
 */
export function runEnded(
  runs: RunService,
  read: (runId: string) => RunRow | null | Promise<RunRow | null>,
  runId: string,
  timeoutMs = 10_000,
): Promise<RunRow> {
  return new Promise((resolve, reject) => {
    let done = false
    const end = async () => {
      if (done) return
      const run = await read(runId)
      if (!run || !finalRunStatuses.has(run.status) || done) return
      done = true
      stop()
      clearTimeout(timer)
      resolve(run)
    }
    const stop = runs.subscribe(runId, (row) => { if (row.type === 'run.finished') void end() })
    const timer = setTimeout(() => {
      stop()
      reject(new Error(`run ${runId} did not end within ${timeoutMs} ms`))
    }, timeoutMs)
    void end()
  })
}

/**
 * The run (as GET /api/runs/:id answers it) once it has ended: its event stream is followed to
 * `run.finished`, where the server closes it (204 at once for a run that had ended already).
 */
export async function runEndedOn(server: AppServer, runId: string, timeoutMs = 15_000): Promise<any> {
  const ended = (body: { status?: string }) => finalRunStatuses.has(body.status ?? '')
  const response = await fetch(`${server.url}/api/runs/${runId}/events`, { signal: AbortSignal.timeout(timeoutMs) })
  await response.text()
  // A stream refused (too many open) or cut short: then ask until it has ended.
  return runWhen(server, runId, ended, timeoutMs, `run ${runId} to end`)
}

/** The run (as GET /api/runs/:id answers it) once `until` holds of it, asked every 25 ms until `timeoutMs`. */
export function runWhen(server: AppServer, runId: string, until: (run: any) => boolean, timeoutMs: number, what: string): Promise<any> {
  return waitFor(async () => {
    const { body } = await server.api(`/api/runs/${runId}`)
    return until(body) && body
  }, timeoutMs, what)
}
