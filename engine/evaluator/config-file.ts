import { constants } from 'node:fs'
import { lstat, open, realpath } from 'node:fs/promises'
import { extname, isAbsolute, relative, resolve, sep } from 'node:path'
import { JudgeflowError } from '../errors'
import { DEFAULT_MAX_JSON_DEPTH, readJson } from '../text/safe-json'
import { parseMetricSuiteToml } from './metric-suite-toml'

/** A config file is small; anything larger is refused before it is read. */
export const MAX_CONFIG_FILE_BYTES = 256 * 1024

/** The folder evaluator steps read their `config_file` from unless an app names another (JUDGEFLOW_CONFIG_DIR). */
export const DEFAULT_CONFIG_DIR = 'configs'

export interface ReadConfigOptions {
  /** Only files inside this folder (after resolving symlinks) are read; relative paths start there. */
  within?: string
}

const cache = new Map<string, { mtimeMs: number, size: number, config: Record<string, unknown> }>()

const refuse = (message: string) => new JudgeflowError('INVALID_CONFIG', message)
/** Windows has neither flag; it has no named pipes in the file system either. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0)

/**
 * Reads a JSON or TOML evaluator config; a changed file is read again on the next call, no restart
 * needed. Only regular `.json` / `.toml` files up to MAX_CONFIG_FILE_BYTES are read, and with
 * `within` only files inside that folder. Errors name the file and what is wrong, never what the
 * file holds: a path that is refused says nothing of what lies there. Nor do they say where the
 * config folder is on the server: a file in it is named relative to it.
 */
export async function readEvaluatorConfigFile(given: string, options: ReadConfigOptions = {}): Promise<Record<string, unknown>> {
  const path = shownName(given, options.within)
  const where = options.within ? ' in the config folder (JUDGEFLOW_CONFIG_DIR)' : ''
  if (!/^\.(json|toml)$/i.test(extname(given))) throw refuse(`The config file "${path}" must be a .json or .toml file.`)
  const real = await realFile(given, path, options.within, where)
  if (!/^\.(json|toml)$/i.test(extname(real))) throw refuse(`The config file "${path}" must be a .json or .toml file.`)
  const notRegular = () => refuse(`The config file "${path}" is not a regular file: only regular .json and .toml files are read.`)
  // Opening a named pipe waits for a writer, holding one of Node's few file-system threads: look first.
  if (!(await lstat(real).catch(() => { throw refuse(`Cannot read the config file "${path}"${where}.`) })).isFile()) throw notRegular()
  // Non-blocking and without following a link, in case another file was put in its place since.
  const handle = await open(real, OPEN_FLAGS).catch(() => { throw refuse(`Cannot read the config file "${path}"${where}.`) })
  try {
    const stat = await handle.stat()
    if (!stat.isFile()) throw notRegular()
    if (stat.size > MAX_CONFIG_FILE_BYTES) throw refuse(`The config file "${path}" is larger than ${MAX_CONFIG_FILE_BYTES} bytes.`)
    const hit = cache.get(real)
    if (hit && hit.mtimeMs === stat.mtimeMs && hit.size === stat.size) return hit.config
    // Read at most one byte past the cap, whatever the file claims its size is.
    const buffer = Buffer.alloc(MAX_CONFIG_FILE_BYTES + 1)
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
    if (bytesRead > MAX_CONFIG_FILE_BYTES) throw refuse(`The config file "${path}" is larger than ${MAX_CONFIG_FILE_BYTES} bytes.`)
    const config = parseConfigText(buffer.subarray(0, bytesRead).toString('utf8'), path, /\.toml$/i.test(real))
    cache.set(real, { mtimeMs: stat.mtimeMs, size: stat.size, config })
    return config
  }
  finally {
    await handle.close()
  }
}

/** The file as errors name it: as given, or relative to the config folder when given as an absolute path inside it. */
function shownName(given: string, within: string | undefined): string {
  if (!within || !isAbsolute(given)) return given
  const folder = resolve(within)
  return isInsideFolder(folder, resolve(given)) ? relative(folder, resolve(given)) : given
}

async function realFile(given: string, path: string, within: string | undefined, where: string): Promise<string> {
  const missing = () => refuse(`Cannot read the config file "${path}"${where}: it does not exist.`)
  if (!within) return realpath(given).catch(() => { throw missing() })
  const base = await realpath(within).catch(() => { throw refuse(`Cannot read the config file "${path}": the config folder (JUDGEFLOW_CONFIG_DIR) does not exist.`) })
  const outside = () => refuse(`The config file "${path}" is outside the config folder (JUDGEFLOW_CONFIG_DIR); config files are read only from there.`)
  const candidate = resolve(base, given)
  if (!isInsideFolder(base, candidate)) throw outside()
  const real = await realpath(candidate).catch(() => { throw missing() })
  if (!isInsideFolder(base, real)) throw outside()
  return real
}

/** Whether `path` lies inside the folder `base` (the folder itself is not inside it); both resolved. */
export function isInsideFolder(base: string, path: string): boolean {
  const rel = relative(base, path)
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel)
}

function parseConfigText(text: string, path: string, toml: boolean): Record<string, unknown> {
  if (toml) return parseMetricSuiteToml(text, `the config file "${path}"`)
  const where = `The config file "${path}"`
  // Read with its depth, keys and text checked before anything walks it; a shape problem is the user's to fix, with its path.
  const read = readJson(text, DEFAULT_MAX_JSON_DEPTH)
  if (!read.ok) throw read.details ? new JudgeflowError('INVALID_INPUT', `${where} ${read.reason}.`, { details: read.details }) : refuse(`${where} is not valid JSON.`)
  const config = read.value
  if (!config || typeof config !== 'object' || Array.isArray(config)) throw refuse(`${where} must hold a JSON object.`)
  return config as Record<string, unknown>
}
