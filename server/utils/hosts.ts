import type { H3Event } from 'h3'
import { isLoopbackHost } from './access'
import { judgeflowConfig } from './config'

/**
 * The Host names this server answers to. Without it, a page on any site could rebind its own
 * name to 127.0.0.1 and drive the API as a same-origin caller: the Host header is the one thing
 * such a request cannot fake. Literal loopback addresses and `localhost` are always allowed (never
 * a name that only starts with `127.`); JUDGEFLOW_ALLOWED_HOSTS adds others (comma-separated names,
 * optionally with a port).
 */
export function allowedHosts(): string[] {
  return judgeflowConfig().server.allowedHosts
}

/** `host` as sent (`name` or `name:port`) split into its name and port; null when malformed. */
export function parseHostHeader(host: string): { name: string, port: string } | null {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i.exec(host.trim())
  return match ? { name: match[1]!.toLowerCase(), port: match[2] ?? '' } : null
}

export function isAllowedHost(host: string | undefined, extra = allowedHosts()): boolean {
  if (!host) return false
  const parsed = parseHostHeader(host)
  if (!parsed) return false
  if (isLoopbackHost(parsed.name)) return true
  return extra.some(entry => entry === parsed.name || entry === `${parsed.name}:${parsed.port}`)
}

/** The origin a same-origin browser request carries: scheme and host as this server is reached. */
export function ownOrigin(event: H3Event): string {
  return `${getRequestProtocol(event)}://${getRequestHeader(event, 'host') ?? ''}`.toLowerCase()
}
