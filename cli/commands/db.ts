import { existsSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { openDatabase } from '../../db'
import { copySqliteToPostgres } from '../../db/copy'
import { openPostgres } from '../../db/pg'
import { JudgeflowError } from '../../engine'
import type { Io } from '../io'
import { DB_USAGE } from '../usage'
import { COMMANDS } from '../help/commands'

export { DB_USAGE }

/**
 * `judgeflow db copy --from <sqlite file> --to <postgres url>`: moves a SQLite database into an
 * empty PostgreSQL one (JUDGEFLOW_DATABASE_URL), printing each table's rows on both sides.
 */
export async function dbCommand(args: string[], io: Io): Promise<number> {
  const [sub, ...rest] = args
  if (sub !== 'copy') {
    io.err(`db needs a subcommand: ${DB_USAGE}`)
    return 2
  }
  const { values } = parseArgs({ args: rest, options: COMMANDS.db.flags })
  if (!values.from || !values.to) {
    io.err(`db copy needs ${values.from ? '--to' : '--from'}: ${DB_USAGE}`)
    return 2
  }
  if (!existsSync(values.from)) throw new JudgeflowError('INVALID_INPUT', `--from: the SQLite file "${values.from}" does not exist.`)
  if (!/^postgres(ql)?:\/\/[^/]/.test(values.to)) throw new JudgeflowError('INVALID_INPUT', '--to must be a PostgreSQL URL such as postgres://user:password@localhost:5432/judgeflow.')
  const source = openDatabase(values.from)
  const target = openPostgres(values.to, { poolSize: 2 })
  try {
    await target.ready
    const copied = await copySqliteToPostgres(source.db, target.db)
    const width = Math.max(...copied.map(c => c.table.length))
    io.out(`${'table'.padEnd(width)}  sqlite  postgres`)
    for (const c of copied) io.out(`${c.table.padEnd(width)}  ${String(c.sqlite).padStart(6)}  ${String(c.postgres).padStart(8)}`)
    io.out(`Copied ${copied.reduce((sum, c) => sum + c.postgres, 0)} rows in ${copied.length} tables; every table's count matches.`)
    return 0
  }
  finally {
    source.close()
    await target.close()
  }
}
