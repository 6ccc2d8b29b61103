import { cpSync } from 'node:fs'
import { join } from 'node:path'

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
    },
  },
  nitro: {
    hooks: {
      // The built server applies migrations at start; they travel with it.
      compiled(nitro) {
        cpSync(join(nitro.options.rootDir, 'db/migrations'), join(nitro.options.output.serverDir, 'migrations'), { recursive: true })
      },
    },
  },
})
