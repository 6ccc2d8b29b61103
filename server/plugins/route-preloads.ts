import { joinURL } from 'ufo'
import pageChunks from '#judgeflow/page-chunks'

/**
 * The HTML of a page named in PRELOADED_PAGES (app/utils/early-requests.ts) asks for its code at
 * once: its chunks as module preloads, its style sheets as preloads. Otherwise the app's entry
 * finds the route only once it has run, then loads the page's chunk, then what that imports.
 */
export default defineNitroPlugin((nitroApp) => {
  const { app } = useRuntimeConfig()
  // A built file's name is its path under the build's output, the assets' folder included.
  const url = (file: string) => joinURL(app.cdnURL || app.baseURL, file)
  const pages = pageChunks.map(page => ({
    path: new RegExp(page.path),
    links: [
      ...page.styles.map(file => `<link rel="preload" as="style" crossorigin href="${url(file)}">`),
      ...page.scripts.map(file => `<link rel="modulepreload" as="script" crossorigin href="${url(file)}">`),
    ].join(''),
  }))
  nitroApp.hooks.hook('render:html', (html, { event }) => {
    const page = pages.find(p => p.path.test(event.path.split('?')[0]!))
    if (page) html.head.push(page.links)
  })
})
