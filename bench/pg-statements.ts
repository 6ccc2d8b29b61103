/**
 * BENCH_PG_STATEMENTS=1: where a PostgreSQL benchmark's database time goes, from pg_stat_statements
 * (loaded by `startPostgres({ statements: true })`): each statement's calls and execution time per
 * unit of work, printed to stderr beside the benchmark's figures. Execution time leaves out what each
 * round trip costs around it (the protocol, the socket, waking the backend), so the number of calls
 * matters as much as their time.
 */
import pg from 'pg'

export const statementsWanted = () => process.env.BENCH_PG_STATEMENTS === '1'

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  client.on('error', () => {})
  await client.connect()
  try {
    return await use(client)
  }
  finally {
    await client.end()
  }
}

/** Starts counting from now (creates the extension in the database first). */
export function resetStatements(url: string): Promise<void> {
  return withClient(url, async (client) => {
    await client.query('create extension if not exists pg_stat_statements')
    await client.query('select pg_stat_statements_reset()')
  })
}

/** Prints the statements since `resetStatements`, the costliest first, per `per` (cases, runs) of `unit`. */
export function printStatements(url: string, per: number, unit: string, label: string): Promise<void> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ calls: string, ms: number, query: string }>(
      `select calls, total_exec_time as ms, regexp_replace(query, '\\s+', ' ', 'g') as query from pg_stat_statements
       where query not like '%pg_stat_statements%' order by total_exec_time desc`,
    )
    const calls = rows.reduce((sum, r) => sum + Number(r.calls), 0)
    const ms = rows.reduce((sum, r) => sum + r.ms, 0)
    console.error(`${label}: ${(calls / per).toFixed(1)} statements and ${(ms / per).toFixed(2)} ms of execution per ${unit}`)
    for (const r of rows.slice(0, 20)) {
      console.error(`  ${(Number(r.calls) / per).toFixed(2)} × ${(r.ms / Number(r.calls)).toFixed(3)} ms  ${r.query.slice(0, 140)}`)
    }
  })
}
