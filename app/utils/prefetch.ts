/**
 * Requests started as soon as a route is known, before the code of its page has loaded; the
 * page takes each answer once. Only the latest navigation's requests are kept.
 */
const started = new Map<string, Promise<unknown>>()
// Plain URLs: the typed-route inference of $fetch is too deep for URLs built at run time.
const get = $fetch as unknown as (url: string) => Promise<unknown>

// Asked by the page's inline script (EARLY_SCRIPT) before any code loaded, by URL; each taken once.
declare global {
  interface Window { __judgeflowEarly?: Record<string, Promise<Response | null>> }
}

/** The inline script's answer for `url` when it asked for it, parsed; anything but a 2xx is asked again, so errors read as usual. */
function early(url: string): Promise<unknown> | undefined {
  const asked = window.__judgeflowEarly
  const response = asked && Object.hasOwn(asked, url) ? asked[url] : undefined
  if (!response) return undefined
  delete asked![url]
  return response.then(answer => (answer?.ok ? answer.json() : get(url)))
}

export function prefetch(urls: string[]) {
  started.clear()
  for (const url of urls) {
    const request = early(url) ?? get(url)
    // A request nobody takes (the navigation went elsewhere) must not report an unhandled rejection.
    request.catch(() => undefined)
    started.set(url, request)
  }
}

/** The prefetched answer for `url` if there is one, else a new request. */
export function fetchOnce<T>(url: string): Promise<T> {
  const request = started.get(url)
  started.delete(url)
  return (request ?? get(url)) as Promise<T>
}
