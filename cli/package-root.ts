import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseOwnJson } from '../engine/text/own-json'

/** The folder of judgeflow's package.json: two folders up in the source tree, one in the compiled `dist/`. */
export function packageRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(folder, 'package.json')) && dirname(folder) !== folder) folder = dirname(folder)
  return folder
}

/** The installed package's version, from its package.json (`judgeflow --version`). */
export function packageVersion(): string {
  return String(parseOwnJson<{ version?: unknown }>(readFileSync(join(packageRoot(), 'package.json'), 'utf8')).version)
}
