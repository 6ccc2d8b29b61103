import { cpSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'

// The design card puts pages/ and components/ at the top level; app/ keeps app.vue, layouts, composables and stores.
export default defineNuxtConfig({
  compatibilityDate: '2025-07-15',
  telemetry: false,
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
      // A dataset run's report is asked for as the page starts, while the app's code loads
      // (app/utils/prefetch.ts takes the answer); the CSP allows it by its hash.
      script: [{
        tagPosition: 'head',
        innerHTML: '{const m=/^\\/dataset-runs\\/([\\w-]+)\\/?$/.exec(location.pathname);'
          + 'if(m){const url="/api/dataset-runs/"+m[1];window.__judgeflowEarly={url,response:fetch(url).catch(()=>null)}}}',
      }],
    },
  },
  nitro: {
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
