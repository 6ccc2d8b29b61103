import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import madge from 'madge'
import ts from 'typescript'

/**
 * The import graph of the TypeScript modules and Vue components under some folders, type-only
 * imports included (a ring of types is a ring too), and the rings in it. madge reads the
 * TypeScript; its reader for Vue gives up on `<script setup lang="ts">`, so the components'
 * `<script>` blocks are read here and their imports resolved as Nuxt resolves them.
 */
export type ImportGraph = Record<string, string[]>

/** Nuxt's aliases: `~~/` the project's root, `~/` and `@/` the app folder. */
const ALIASES: Array<[prefix: string, folder: string]> = [['~~/', '.'], ['@@/', '.'], ['~/', 'app'], ['@/', 'app']]
const EXTENSIONS = ['', '.ts', '.vue', '/index.ts']
const SCRIPT_BLOCK = /<script\b[^>]*>([\s\S]*?)<\/script>/g

/** Every module under `folders` (relative to `root`) with the modules it imports, by their paths from `root`. */
export async function importGraph(root: string, folders: string[], tsConfig?: string): Promise<ImportGraph> {
  const tsFolders = folders.filter(folder => filesUnder(join(root, folder), '.ts').length)
  const graph: ImportGraph = tsFolders.length
    ? (await madge(tsFolders.map(folder => join(root, folder)), {
        baseDir: root, fileExtensions: ['ts'], tsConfig, dependencyFilter: (path: string) => !path.endsWith('.vue'), detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
      })).obj()
    : {}
  // madge leaves out the modules' imports of components (it cannot read them): they are added here.
  for (const [file, imports] of Object.entries(graph)) {
    const components = moduleImports(root, join(root, file), readFileSync(join(root, file), 'utf8')).filter(path => path.endsWith('.vue'))
    if (components.length) graph[file] = [...imports, ...components]
  }
  for (const folder of folders) {
    for (const file of filesUnder(join(root, folder), '.vue')) {
      graph[relative(root, file)] = componentImports(root, file)
    }
  }
  return graph
}

/** The modules a Vue component's `<script>` blocks import, resolved to paths from `root`; packages and Nuxt's virtual modules left out. */
export function componentImports(root: string, file: string): string[] {
  const imports = new Set<string>()
  for (const [, script] of readFileSync(file, 'utf8').matchAll(SCRIPT_BLOCK)) {
    for (const target of moduleImports(root, file, script!)) imports.add(target)
  }
  return [...imports].sort()
}

/** The project's modules `source` (the text of `file`, or its script) imports, statically or with import(), resolved to paths from `root`. */
function moduleImports(root: string, file: string, source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map(({ fileName }) => resolveImport(root, file, fileName)).filter(path => path !== undefined)
}

/**
 * The rings of the graph: each set of modules that reach one another through their imports (a
 * strongly connected component of more than one module, or a module importing itself), sorted.
 */
export function importCycles(graph: ImportGraph): string[][] {
  // Tarjan's algorithm, iterative so a long chain of imports cannot exhaust the stack.
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const rings: string[][] = []
  let next = 0
  for (const start of Object.keys(graph)) {
    if (index.has(start)) continue
    const work: Array<{ node: string, edge: number }> = [{ node: start, edge: 0 }]
    index.set(start, next); low.set(start, next++); stack.push(start); onStack.add(start)
    while (work.length) {
      const frame = work.at(-1)!
      const edges = graph[frame.node] ?? []
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++]!
        if (!index.has(to)) {
          index.set(to, next); low.set(to, next++); stack.push(to); onStack.add(to)
          work.push({ node: to, edge: 0 })
        }
        else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!))
        continue
      }
      work.pop()
      const parent = work.at(-1)
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!))
      if (low.get(frame.node) !== index.get(frame.node)) continue
      const ring: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        ring.push(member)
      } while (member !== frame.node)
      if (ring.length > 1 || edges.includes(frame.node)) rings.push(ring.sort())
    }
  }
  return rings.sort((a, b) => a[0]!.localeCompare(b[0]!))
}

function resolveImport(root: string, from: string, specifier: string): string | undefined {
  let base: string | undefined
  if (specifier.startsWith('./') || specifier.startsWith('../')) base = resolve(dirname(from), specifier)
  for (const [prefix, folder] of ALIASES) {
    if (!base && specifier.startsWith(prefix)) base = resolve(root, folder, specifier.slice(prefix.length))
  }
  if (!base) return undefined
  const found = EXTENSIONS.map(extension => `${base.replace(/\.js$/, '')}${extension}`).find(path => existsSync(path) && statSync(path).isFile())
  return found ? relative(root, found) : undefined
}

function filesUnder(folder: string, extension: string): string[] {
  if (!existsSync(folder)) return []
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter(entry => entry.isFile() && entry.name.endsWith(extension))
    .map(entry => join(entry.parentPath, entry.name))
}
