import { readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

/** The files a custom-modules folder may hold; `.ts` needs a TypeScript loader (the CLI has one), the built server loads `.mjs`/`.js`. */
export const MODULE_FILE = /\.(mjs|js|ts|mts)$/

export interface FolderModule {
  /** The file's path, for messages. */
  path: string
  /** The file's name without its extension. */
  name: string
  /** The module's default export, else its export named `exportName`. */
  exported: unknown
}

/**
 * Imports every module of a folder (custom metrics, custom scorers) in file-name order; a folder
 * that does not exist holds none.
 */
export async function importFolderModules(folder: string, exportName: string): Promise<FolderModule[]> {
  let files: string[]
  try {
    files = readdirSync(folder).filter(name => MODULE_FILE.test(name) && !name.endsWith('.d.ts')).sort()
  }
  catch {
    return []
  }
  const modules: FolderModule[] = []
  for (const file of files) {
    const path = join(folder, file)
    const module = await import(pathToFileURL(resolve(path)).href) as Record<string, unknown>
    modules.push({ path, name: file.replace(MODULE_FILE, ''), exported: module.default ?? module[exportName] })
  }
  return modules
}
