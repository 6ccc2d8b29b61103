/**
 * Requests started as soon as a route is known, before the code of its page has loaded; the
 * page takes each answer once. Only the latest navigation's requests are kept.
 */
const started = new Map<string, Promise<unknown>>()

export function prefetch(urls: string[]) {
  started.clear()
  for (const url of urls) {
    const request = $fetch(url)
    // A request nobody takes (the navigation went elsewhere) must not report an unhandled rejection.
    request.catch(() => undefined)
    started.set(url, request)
  }
}

/** The prefetched answer for `url` if there is one, else a new request. */
export function fetchOnce<T>(url: string): Promise<T> {
  const request = started.get(url)
  started.delete(url)
  return (request ?? $fetch(url)) as Promise<T>
}
