import { parseArgs } from 'node:util'
import { DEFAULT_DB_PATH, type JudgeflowConfig } from '../../core/config'
import { backupDatabase } from '../../db'
import { JudgeflowError } from '../../engine'
import type { Io } from '../io'
import { checkOutputFiles } from '../output-paths'
import { COMMANDS } from '../help/commands'

/**
 * `judgeflow backup <file> [--db <path>]`: a consistent online copy of the database, safe while
 * the server is running; restore by stopping the server and putting the copy in place of the database.
 */
export async function backupCommand(args: string[], io: Io, config: JudgeflowConfig): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: COMMANDS.backup.flags })
  if (positionals.length !== 1) {
    io.err('backup needs the file to write: judgeflow backup <file> [--db <path>]')
    return 2
  }
  const source = values.db || config.db.path || DEFAULT_DB_PATH
  checkOutputFiles([{ path: positionals[0]!, flag: 'the backup file' }], { inputs: [{ path: source, what: 'the database' }], createsFolders: true })
  try {
    const result = await backupDatabase(source, positionals[0]!)
    io.out(JSON.stringify(result, null, 2))
    return 0
  }
  catch (error) {
    throw new JudgeflowError('INVALID_INPUT', `Backup of "${source}" failed: ${(error as Error).message}`)
  }
}
