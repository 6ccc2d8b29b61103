/**
 * Which addresses an HTTP call may reach (the SSRF guard of the `http` step).
 *
 * Every call refuses URLs that are not http(s) and URLs carrying credentials (`user:pass@`). With
 * `guard` (the server), a call may also reach only:
 * - hosts matching `allow` when it is given (JUDGEFLOW_HTTP_ALLOW), and
 * - public unicast addresses: loopback, unspecified, link-local, private, unique-local, CGNAT,
 *   multicast, broadcast, reserved and every other special-purpose range are refused, as are the
 *   IPv6 forms that carry an IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`,
 *   NAT64 `64:ff9b::a.b.c.d`), judged by the IPv4 address they carry —
 *   unless the host name, or the address, is listed in `allow`.
 *
 * `allow` patterns, case-insensitive, no ports:
 * - `api.example.com`: that host name (a trailing dot ignored; international names as punycode);
 * - `*.example.com`: any name under example.com, not example.com itself;
 * - `127.0.0.1`, `::1` (or `[::1]`): that address;
 * - `10.0.0.0/8`, `fd00::/8`: the addresses of that CIDR range.
 * A listed name is trusted with whatever it resolves to (list `localhost` to call a local service);
 * a name that no name pattern lists passes only if each of its addresses is listed.
 *
 * The check is made on the addresses the connection goes to: an IP literal before the request is
 * created, a host name inside the request's `lookup` (`guardedLookup`), which resolves the name once,
 * checks every address, and hands Node only those addresses to connect to (no second resolution,
 * so DNS rebinding cannot swap a checked address for another).
 */
import dns, { type LookupAddress, type LookupAllOptions } from 'node:dns'
import type { LookupFunction } from 'node:net'
import { isIP } from 'node:net'
import { domainToASCII } from 'node:url'
import ipaddr from 'ipaddr.js'
import { JudgeflowError } from '../errors'

export interface AddressPolicy {
  /** Host patterns (JUDGEFLOW_HTTP_ALLOW); undefined: any host, public addresses only when guarded. */
  allow?: readonly string[]
  /** True on the server; the CLI and the library call any host. */
  guard: boolean
}

/** Resolves a host name to all its addresses (dns.lookup with `all`; tests hand their own). */
export type ResolveHost = (hostname: string, options: LookupAllOptions) => Promise<LookupAddress[]>

export const resolveWithDns: ResolveHost = (hostname, options) => dns.promises.lookup(hostname, { family: options.family, hints: options.hints, all: true })

type Address = ipaddr.IPv4 | ipaddr.IPv6
type AllowPattern
  = | { kind: 'name', name: string }
    | { kind: 'under', suffix: string }
    | { kind: 'range', range: [Address, number] }

const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96')
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96')
const NAMES_SHOWN = 10

/** The allow patterns read, or INVALID_CONFIG naming the first that is not one. */
export function parseAllowPatterns(patterns: readonly string[]): AllowPattern[] {
  return patterns.map((pattern) => {
    const parsed = parsePattern(pattern.trim())
    if (!parsed) {
      throw new JudgeflowError('INVALID_CONFIG', `"${pattern}" is not a host pattern for JUDGEFLOW_HTTP_ALLOW: write a host name (api.example.com), a wildcard (*.example.com), an address (10.1.2.3, ::1) or a CIDR range (10.0.0.0/8).`)
    }
    return parsed
  })
}

function parsePattern(pattern: string): AllowPattern | undefined {
  const [address, bits, ...rest] = pattern.replace(/^\[(.*)\]$/, '$1').split('/')
  if (address && isIP(address)) {
    const parsed = ipaddr.parse(address)
    const width = parsed.kind() === 'ipv4' ? 32 : 128
    if (bits === undefined) return { kind: 'range', range: [parsed, width] }
    if (rest.length || !/^\d{1,3}$/.test(bits) || Number(bits) > width) return undefined
    return { kind: 'range', range: [parsed, Number(bits)] }
  }
  const wildcard = pattern.startsWith('*.')
  const raw = wildcard ? pattern.slice(2) : pattern
  // domainToASCII parses as a URL's host does: it would read "0x7f.1/8" as 127.0.0.1.
  if (/[/\\:@?#*\s[\]]/.test(raw)) return undefined
  const name = hostName(raw)
  if (!name || isIP(name) || !/^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/.test(name)) return undefined
  return wildcard ? { kind: 'under', suffix: `.${name}` } : { kind: 'name', name }
}

function hostName(text: string): string {
  return domainToASCII(text.toLowerCase().replace(/\.$/, ''))
}

/** A policy with its patterns read once, asked about URLs and the addresses their hosts resolve to. */
export class CheckedPolicy {
  readonly guard: boolean
  private readonly patterns: AllowPattern[] | undefined
  private readonly allowText: string

  constructor(policy: AddressPolicy) {
    this.guard = policy.guard
    this.patterns = policy.allow && parseAllowPatterns(policy.allow)
    this.allowText = policy.allow?.length
      ? `${policy.allow.slice(0, NAMES_SHOWN).join(', ')}${policy.allow.length > NAMES_SHOWN ? ', …' : ''}`
      : 'nothing'
  }

  /**
   * Why `url` may not be called, before any name is resolved (its scheme, credentials, an IP literal
   * host, a name no pattern can list), or undefined when its host's addresses decide.
   */
  urlRefusal(url: URL): string | undefined {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return `only http and https URLs can be called, not ${url.protocol.slice(0, -1)}`
    if (url.username || url.password) return 'a URL may not carry credentials (user:password@): send them in a header'
    if (!this.guard) return undefined
    const host = urlHost(url)
    if (isIP(host)) return this.addressRefusal(host, host)
    if (this.patterns && !this.nameListed(host) && !this.patterns.some(p => p.kind === 'range')) return this.notListed(host)
    return undefined
  }

  /** Why the connection to `address` (what `host` resolved to, or the host itself) is refused, or undefined. */
  addressRefusal(host: string, address: string): string | undefined {
    if (!this.guard) return undefined
    const literal = isIP(host) !== 0
    if (!literal && this.nameListed(host)) return undefined
    let parsed: Address
    try {
      parsed = ipaddr.parse(address)
    }
    catch {
      return `${host} resolves to ${address}, which is not an address that can be checked`
    }
    if (this.addressListed(parsed)) return undefined
    if (this.patterns) return this.notListed(host)
    const range = specialRange(parsed)
    if (!range) return undefined
    const what = `${describeRange(range)}; the server calls only public addresses unless the host or the address is listed in JUDGEFLOW_HTTP_ALLOW`
    return literal ? `${host} is ${what}` : `${host} resolves to ${address}, ${what}`
  }

  private nameListed(host: string): boolean {
    return !!this.patterns?.some(p => (p.kind === 'name' && p.name === host) || (p.kind === 'under' && host.endsWith(p.suffix)))
  }

  private addressListed(address: Address): boolean {
    const plain = ipaddr.process(address.toString())
    return !!this.patterns?.some(p => p.kind === 'range' && p.range[0].kind() === plain.kind() && plain.match(p.range))
  }

  private notListed(host: string): string {
    return `${host} is not in JUDGEFLOW_HTTP_ALLOW (${this.allowText}), the hosts the server may call`
  }
}

/** The URL's host as the policy compares it: lower case, no brackets around IPv6, no trailing dot. */
export function urlHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase()
}

/** The special-purpose range `address` belongs to (ipaddr.js's name), or undefined for a public unicast one. */
export function specialRange(address: Address): string | undefined {
  let ip: Address = address
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6
    if (v6.isIPv4MappedAddress()) ip = v6.toIPv4Address()
    else if (v6.match(NAT64) || (v6.range() === 'unicast' && v6.match(IPV4_COMPATIBLE))) ip = ipaddr.fromByteArray(v6.toByteArray().slice(12))
  }
  const range = ip.range()
  return range === 'unicast' ? undefined : range
}

const RANGE_NAMES: Record<string, string> = {
  loopback: 'a loopback address',
  unspecified: 'the unspecified address',
  linkLocal: 'a link-local address',
  private: 'a private address',
  uniqueLocal: 'a private (unique local) address',
  carrierGradeNat: 'a shared (CGNAT) address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  reserved: 'a reserved address',
}

function describeRange(range: string): string {
  return RANGE_NAMES[range] ?? `a special-purpose address (${range})`
}

/**
 * The `lookup` option of a node:http(s) request: resolves the name once with `resolve`, refuses
 * (HTTP_REFUSED) when any of its addresses is, and otherwise gives Node exactly those addresses.
 */
export function guardedLookup(policy: CheckedPolicy, describeUrl: string, resolve: ResolveHost = resolveWithDns): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { family: options.family, hints: options.hints, all: true }).then((addresses) => {
      if (!addresses.length) throw new JudgeflowError('HTTP_FAILED', `${describeUrl} failed: ${hostname} has no address.`, { category: 'provider', details: { reason: 'network' } })
      const host = hostName(hostname)
      for (const { address } of addresses) {
        const refusal = policy.addressRefusal(host, address)
        if (refusal) throw refused(describeUrl, refusal)
      }
      if (options.all) callback(null, addresses)
      else callback(null, addresses[0]!.address, addresses[0]!.family)
    }).catch((error: NodeJS.ErrnoException) => callback(error, ''))
  }
}

/** HTTP_REFUSED for `describeUrl` (a URL as errors show it) and why. */
export function refused(describeUrl: string, reason: string): JudgeflowError {
  return new JudgeflowError('HTTP_REFUSED', `${describeUrl} is refused: ${reason}.`, { details: { reason: 'policy' } })
}
