import type { H3Event } from 'h3'

/**
 * Who a request comes from, for the limits kept per client (wrong tokens, event streams, imports):
 * the address its connection comes from, never a header the client writes (X-Forwarded-For) nor its
 * session, since whoever holds the token can open as many sessions as it likes.
 */
export function clientAddress(event: H3Event): string {
  return getRequestIP(event) ?? 'unknown'
}
