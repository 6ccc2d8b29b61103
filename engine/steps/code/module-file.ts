/**
 * Where a code step's file is: its path is read in the config folder (JUDGEFLOW_CONFIG_DIR,
 * ./configs by default, as an evaluator's `config_file` is), and a path that leads out of it —
 * `..`, an absolute path elsewhere, a symbolic link pointing away — is refused. Errors say which
 * folder was looked in.
 */
import { realpath, stat } from 'node:fs/promises'
import { relative, resolve } from 'node:path'
import { DEFAULT_CONFIG_DIR, isInsideFolder as inside } from '../../evaluator/config-file'
import { JudgeflowError } from '../../errors'

export interface ModuleFile {
  /** The file's real path. */
  file: string
  /** The config folder's real path. */
  root: string
  /** The file as messages name it: its path in the folder. */
  label: string
}

/** `given` (the config's `module` or `python`) found in `configDir`, or INVALID_CONFIG naming the node, the field and the folder. */
export async function findModuleFile(given: string, configDir: string | undefined, nodeId: string, field: string): Promise<ModuleFile> {
  const folder = resolve(configDir ?? DEFAULT_CONFIG_DIR)
  const refuse = (why: string) => new JudgeflowError('INVALID_CONFIG', `node "${nodeId}": ${field} "${given}" ${why}`, { details: { field, folder } })
  const where = `the config folder ${folder} (JUDGEFLOW_CONFIG_DIR; ./configs unless set)`
  const root = await realpath(folder).catch(() => { throw refuse(`cannot be read: ${where} does not exist.`) })
  const outside = () => refuse(`is outside ${where}: a code step runs only files in that folder.`)
  const candidate = resolve(folder, given)
  if (!inside(folder, candidate)) throw outside()
  const file = await realpath(candidate).catch(() => { throw refuse(`was not found in ${where}.`) })
  if (!inside(root, file)) throw outside()
  if (!(await stat(file)).isFile()) throw refuse(`in ${where} is not a file.`)
  return { file, root, label: relative(folder, candidate) }
}
