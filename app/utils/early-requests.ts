/**
 * The API requests a page needs before it can draw, by path: asked by the page's inline script
 * before any of the app's code has loaded (`EARLY_SCRIPT`, in nuxt.config.ts), and by the router's
 * middleware on a navigation inside the app. `$1` is the path's id.
 */
/** The workflow editor's path (its id in the first group). */
export const EDITOR_PATH = /^\/workflows\/([\w-]+)\/?$/

const EARLY_REQUESTS: ReadonlyArray<{ path: RegExp, urls: readonly string[] }> = [
  { path: EDITOR_PATH, urls: ['/api/workflows/$1', '/api/steps', '/api/models'] },
  { path: /^\/dataset-runs\/([\w-]+)\/?$/, urls: ['/api/dataset-runs/$1'] },
]

/** The requests the page at `pathname` starts with; none for a page that has no such list. */
export function earlyRequests(pathname: string): string[] {
  for (const { path, urls } of EARLY_REQUESTS) {
    const id = path.exec(pathname)?.[1]
    if (id) return urls.map(url => url.replace('$1', id))
  }
  return []
}

/**
 * The same table as a script for the page's head: it asks for the page's requests as the HTML
 * arrives and leaves each answer in `window.__judgeflowEarly` under its URL (app/utils/prefetch.ts
 * takes them). The CSP allows it by its hash.
 */
export const EARLY_SCRIPT = `{const t=${JSON.stringify(EARLY_REQUESTS.map(r => [r.path.source, r.urls]))};`
  + 'for(const[p,u]of t){const m=new RegExp(p).exec(location.pathname);'
  + 'if(m){window.__judgeflowEarly=Object.fromEntries(u.map(x=>{x=x.replace("$1",m[1]);return[x,fetch(x).catch(()=>null)]}));break}}}'
