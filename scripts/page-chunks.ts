/**
 * The pages whose HTML asks for their code at once: the client's build names each page's chunks
 * (`pageChunksPlugin`), the server's build takes them as the module `#judgeflow/page-chunks`, and
 * server/plugins/route-preloads.ts adds the links to the page's HTML. Without them the app's entry
 * finds the route only once it has run, then loads the page's chunk, then what that imports, each
 * at the low priority of a prefetch.
 */
import type { OutputBundle } from 'rollup'
import type { Plugin } from 'vite'
import { EDITOR_PATH } from '../app/utils/early-requests'

export const PAGE_CHUNKS = '#judgeflow/page-chunks'

/** By path, the source files (a page, its layout) whose chunks, with what they import, the page's HTML preloads. */
export const PRELOADED_PAGES: ReadonlyArray<{ path: RegExp, sources: readonly string[] }> = [
  { path: EDITOR_PATH, sources: ['pages/workflows/[id].vue', 'app/layouts/editor.vue'] },
]

export interface PageChunks { path: string, scripts: string[], styles: string[] }

/** The built files each preloaded page needs beyond the entry: its sources' chunks, the chunks they import, their style sheets. */
export function pageChunks(bundle: OutputBundle, root: string): PageChunks[] {
  const chunks = Object.values(bundle).filter(file => file.type === 'chunk')
  return PRELOADED_PAGES.map(({ path, sources }) => {
    const scripts = new Set<string>()
    const styles = new Set<string>()
    const visit = (fileName: string) => {
      const chunk = bundle[fileName]
      if (chunk?.type !== 'chunk' || chunk.isEntry || scripts.has(fileName)) return
      scripts.add(fileName)
      for (const sheet of chunk.viteMetadata?.importedCss ?? []) styles.add(sheet)
      for (const imported of chunk.imports) visit(imported)
    }
    for (const source of sources) {
      const module = `${root}/${source}`
      const chunk = chunks.find(c => c.moduleIds.some(id => id === module))
      if (!chunk) throw new Error(`${source} is in none of the client's chunks: PRELOADED_PAGES (scripts/page-chunks.ts) names a file the build does not have`)
      visit(chunk.fileName)
    }
    return { path: path.source, scripts: [...scripts], styles: [...styles] }
  })
}

/** Tells `found` the chunks of each preloaded page once the client's build has written them; `root` is the project's folder. */
export function pageChunksPlugin(root: () => string, found: (pages: PageChunks[]) => void): Plugin {
  return {
    name: 'judgeflow:page-chunks',
    apply: 'build',
    generateBundle(_options, bundle) {
      found(pageChunks(bundle, root()))
    },
  }
}
