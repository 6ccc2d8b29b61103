import { cpSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import type { Nitro } from 'nitropack'
import { EARLY_SCRIPT } from './app/utils/early-requests'
import { PAGE_CHUNKS, pageChunksPlugin } from './scripts/page-chunks'

/**
 * Packages of native code (a compiled addon, a platform's executable) the built server imports from
 * the installed package's dependencies (see `nitro.externals`).
 */
const NATIVE_PACKAGES = ['better-sqlite3', 'esbuild', '@esbuild']
const isNative = (id: string) => NATIVE_PACKAGES.some(name => id === name || id.startsWith(`${name}/`))

/** The server's build, which takes the chunks the client's build names (see `hooks`). */
let server: Nitro | undefined

// The design card puts pages/ and components/ at the top level; app/ keeps app.vue, layouts, composables and stores.
export default defineNuxtConfig({
  compatibilityDate: '2025-07-15',
  telemetry: false,
  // Two builds of one checkout side by side (a second browser-test server) each take a directory of their own.
  ...(process.env.JUDGEFLOW_BUILD_DIR ? { buildDir: `${process.env.JUDGEFLOW_BUILD_DIR}/nuxt` } : {}),
  devtools: { enabled: false },
  ssr: false,
  modules: ['@pinia/nuxt', '@vueuse/nuxt'],
  css: ['~/assets/css/base.css'],
  dir: { pages: '../pages' },
  components: [{ path: '~~/components', pathPrefix: false }],
  typescript: { strict: true },
  app: {
    head: {
      title: 'judgeflow',
      htmlAttrs: { lang: 'en' },
      meta: [{ name: 'viewport', content: 'width=device-width, initial-scale=1' }],
      // The page's first API requests are asked for as the page starts, while the app's code loads
      // (app/utils/early-requests.ts); app/utils/prefetch.ts takes the answers.
      script: [{ tagPosition: 'head', innerHTML: EARLY_SCRIPT }],
    },
  },
  // The validation worker is a module worker: what it loads only to grade (parsers, validators) stays in chunks of its own.
  vite: { worker: { format: 'es' } },
  // A link loads its page's code when pointed at or focused, not as soon as it is on screen: the
  // editor's header links would otherwise load and run other pages' code while a workflow opens.
  experimental: { defaults: { nuxtLink: { prefetchOn: { visibility: false, interaction: true } } } },
  // The HTML of a page named in PRELOADED_PAGES (scripts/page-chunks.ts) preloads its code:
  // the client's build names the chunks, the server's serves them (server/plugins/route-preloads.ts).
  hooks: {
    'nitro:init'(nitro) {
      server = nitro
    },
    'vite:extendConfig'(config, { isClient }) {
      if (isClient) config.plugins!.push(pageChunksPlugin(() => server!.options.rootDir, (pages) => { server!.options.virtual[PAGE_CHUNKS] = `export default ${JSON.stringify(pages)}` }))
    },
  },
  nitro: {
    ...(process.env.JUDGEFLOW_BUILD_DIR ? { output: { dir: `${process.env.JUDGEFLOW_BUILD_DIR}/output` } } : {}),
    // Until the client's build names them (and in development), no page preloads.
    virtual: { [PAGE_CHUNKS]: 'export default []' },
    // Native code is not copied into .output (it would be built for the packing machine's Node and
    // platform): the server imports it by name, from the installed package's own dependencies, built
    // at install for the user's: the bundle imports it as an external that is not traced, and nothing
    // traced brings it either (drizzle-orm's driver imports it).
    rollupConfig: { plugins: [{ name: 'installed-native-packages', resolveId: (id: string) => isNative(id) ? { id, external: true } : null }] },
    externals: { traceOptions: { ignore: (path: string) => NATIVE_PACKAGES.some(name => path.includes(`node_modules/${name}/`)) } },
    hooks: {
      async compiled(nitro) {
        const { rootDir, output } = nitro.options
        // The built server applies migrations at start; they travel with it.
        cpSync(join(rootDir, 'db/migrations'), join(output.serverDir, 'migrations'), { recursive: true })
        cpSync(join(rootDir, 'db/pg/migrations'), join(output.serverDir, 'pg-migrations'), { recursive: true })
        // Offline evaluations and large imports run on worker threads, which need entry files of their own beside the server's.
        const workers = [['engine/evaluator/worker/entry.ts', 'evaluation-worker.mjs'], ['engine/datasets/import-worker/entry.ts', 'import-worker.mjs']] as const
        for (const [entry, file] of workers) {
          await build({
            entryPoints: [join(rootDir, entry)],
            outfile: join(output.serverDir, file),
            bundle: true,
            platform: 'node',
            format: 'esm',
            target: 'node20',
            // Bundled CommonJS packages (ajv) call require.
            banner: { js: 'import { createRequire } from \'node:module\'; const require = createRequire(import.meta.url);' },
            logLevel: 'warning',
          })
        }
      },
    },
  },
})
