/** Following a redirect as fetch does, and showing a URL in messages without its secrets. */
import { JudgeflowError } from '../errors'

/** Redirects followed at most; the next one fails the call. */
export const MAX_REDIRECTS = 5

const REDIRECTS = new Set([301, 302, 303, 307, 308])
/** Headers describing a request's body, dropped with the body when a redirect turns the request into a GET. */
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']
/**
 * Headers sent on to another origin. fetch drops only `authorization` there; the step's headers
 * carry API keys under any name (x-api-key, {{env.NAME}}), so only content negotiation goes on.
 */
const CROSS_ORIGIN_HEADERS = new Set(['accept', 'accept-language', 'content-type', 'content-language', 'user-agent'])

export interface Hop {
  url: URL
  method: string
  headers: Record<string, string>
  body?: Buffer
}

/** Whether an answer with this status and headers is a redirect to follow (a 3xx without Location is an answer). */
export function isRedirect(status: number, headers: Record<string, string>): boolean {
  return REDIRECTS.has(status) && headers.location !== undefined
}

/**
 * The request a redirect leads to (fetch's HTTP-redirect fetch): 303 turns anything but GET and
 * HEAD into a GET, and 301/302 a POST; those lose their body. Location is read relative to `from`.
 */
export function nextHop(from: Hop, status: number, location: string): Hop {
  let url: URL
  try {
    url = new URL(location, from.url)
  }
  catch {
    throw new JudgeflowError('HTTP_FAILED', `${shownUrl(from.url)} redirected to "${shownText(location)}", which is not a URL.`, { category: 'provider', details: { reason: 'redirect' } })
  }
  const toGet = (status === 303 && from.method !== 'GET' && from.method !== 'HEAD') || ((status === 301 || status === 302) && from.method === 'POST')
  const sameOrigin = url.origin === from.url.origin
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(from.headers)) {
    const key = name.toLowerCase()
    if (toGet && BODY_HEADERS.includes(key)) continue
    if (!sameOrigin && !CROSS_ORIGIN_HEADERS.has(key)) continue
    headers[name] = value
  }
  return toGet ? { url, method: 'GET', headers } : { url, method: from.method, headers, body: from.body }
}

/**
 * A URL as errors show it: no credentials, no fragment, each query value replaced by "…"
 * (a query often carries a key).
 */
export function shownUrl(url: URL): string {
  const query = url.search.slice(1).split('&').filter(Boolean).map((part) => {
    const eq = part.indexOf('=')
    return eq < 0 ? '…' : `${part.slice(0, Math.min(eq, 50))}=…`
  })
  return `${url.protocol}//${url.host}${url.pathname}${query.length ? `?${query.join('&')}` : ''}`
}

/** Text meant to be a URL that is not one, as errors show it: before any query or fragment, credentials cut. */
export function shownText(text: string): string {
  const head = text.split(/[?#]/)[0]!.replace(/\/\/[^/@]*@/, '//')
  return head.length > 200 ? `${head.slice(0, 200)}…` : head
}
