import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * `name` in the folder of the module at `moduleUrl` and in the few above it: a bundle puts its
 * chunks some folders below the files it ships (`.output/server/chunks/…`, `dist/`), and the
 * process's own script may be anything (`judgeflow serve` runs the CLI's).
 */
export function besideModule(moduleUrl: string, name: string): string[] {
  const found: string[] = []
  let folder = dirname(fileURLToPath(moduleUrl))
  for (let up = 0; up < 4; up++, folder = dirname(folder)) found.push(join(folder, name))
  return found
}
