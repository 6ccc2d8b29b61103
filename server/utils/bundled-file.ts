import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * A file the build put beside the server entry (`.output/server/`: the worker bundles, see
 * nuxt.config.ts), found from this module, which sits in a chunk a few folders below the entry;
 * undefined when there is none (a development server).
 */
export function bundledFile(name: string): URL | undefined {
  let folder = dirname(fileURLToPath(import.meta.url))
  for (let up = 0; up < 4; up++, folder = dirname(folder)) {
    const file = join(folder, name)
    if (existsSync(file)) return pathToFileURL(file)
  }
  return undefined
}
