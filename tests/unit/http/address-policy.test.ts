import ipaddr from 'ipaddr.js'
import { describe, expect, it } from 'vitest'
import { CheckedPolicy, parseAllowPatterns, specialRange } from '../../../engine/http/address-policy'
import { JudgeflowError } from '../../../engine/errors'

const guarded = new CheckedPolicy({ guard: true })
const open = new CheckedPolicy({ guard: false })

const refusalOf = (policy: CheckedPolicy, url: string) => policy.urlRefusal(new URL(url))

describe('the address policy, every call', () => {
  it.each(['file:///etc/passwd', 'ftp://example.com/', 'gopher://127.0.0.1:25/', 'data:text/plain,hi', 'javascript:alert(1)'])('refuses %s, not http(s), guard or not', (url) => {
    expect(refusalOf(open, url)).toMatch(/only http and https/)
    expect(refusalOf(guarded, url)).toMatch(/only http and https/)
  })

  it('refuses credentials in the URL, guard or not', () => {
    expect(refusalOf(open, 'http://user:secret@example.com/')).toMatch(/credentials/)
    expect(refusalOf(open, 'https://token@example.com/')).toMatch(/credentials/)
    expect(refusalOf(guarded, 'http://user:secret@example.com/')).toMatch(/credentials/)
  })

  it('lets the CLI and the library (no guard) call loopback, private addresses and any name', () => {
    for (const url of ['http://127.0.0.1:8080/', 'http://localhost/', 'http://10.0.0.1/', 'http://[::1]/', 'http://169.254.169.254/']) {
      expect(refusalOf(open, url)).toBeUndefined()
    }
    expect(open.addressRefusal('localhost', '127.0.0.1')).toBeUndefined()
    expect(new CheckedPolicy({ guard: false, allow: ['api.example.com'] }).urlRefusal(new URL('http://other.example.org/'))).toBeUndefined()
  })
})

describe('the address policy, guarded (the server)', () => {
  it.each([
    ['http://127.0.0.1/', 'loopback'],
    ['http://127.255.0.9/', 'loopback'],
    ['http://2130706433/', 'loopback'],
    ['http://0x7f.1/', 'loopback'],
    ['http://0177.0.0.1/', 'loopback'],
    ['http://127.1/', 'loopback'],
    ['http://[::1]/', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[::ffff:7f00:1]/', 'loopback'],
    ['http://[0:0:0:0:0:ffff:a00:1]/', 'private'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://0/', 'unspecified'],
    ['http://[::]/', 'unspecified'],
    ['http://10.1.2.3/', 'private'],
    ['http://172.16.0.1/', 'private'],
    ['http://172.31.255.255/', 'private'],
    ['http://192.168.1.1/', 'private'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://[fc00::1]/', 'unique local'],
    ['http://[fd12:3456::1]/', 'unique local'],
    ['http://100.64.0.1/', 'CGNAT'],
    ['http://100.127.255.254/', 'CGNAT'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://[ff02::1]/', 'multicast'],
    ['http://255.255.255.255/', 'broadcast'],
    ['http://240.0.0.1/', 'reserved'],
    ['http://[::127.0.0.1]/', 'loopback'],
    ['http://[::a00:1]/', 'private'],
    ['http://[64:ff9b::a00:1]/', 'private'],
  ])('refuses %s (%s) before any name is resolved', (url, kind) => {
    expect(refusalOf(guarded, url)).toContain(kind)
  })

  it('lets public addresses through, IPv4 inside IPv6 judged by the IPv4 address', () => {
    for (const url of ['http://93.184.216.34/', 'http://[2606:4700::1111]/', 'http://[::ffff:93.184.216.34]/', 'http://[64:ff9b::5db8:d822]/', 'http://172.32.0.1/', 'http://100.128.0.1/', 'http://example.com/']) {
      expect(refusalOf(guarded, url), url).toBeUndefined()
    }
  })

  it('judges a name by every address it resolves to', () => {
    expect(guarded.addressRefusal('example.com', '93.184.216.34')).toBeUndefined()
    expect(guarded.addressRefusal('localhost', '127.0.0.1')).toMatch(/^localhost resolves to 127\.0\.0\.1, a loopback address; .*JUDGEFLOW_HTTP_ALLOW/)
    expect(guarded.addressRefusal('rebound.example.com', '::ffff:10.0.0.5')).toContain('private')
    expect(guarded.addressRefusal('odd.example.com', 'not-an-address')).toMatch(/not an address that can be checked/)
  })

  it('calls only the listed hosts when an allow list is given', () => {
    const policy = new CheckedPolicy({ guard: true, allow: ['api.example.com', '*.corp.example'] })
    expect(policy.urlRefusal(new URL('https://api.example.com/v1'))).toBeUndefined()
    expect(policy.urlRefusal(new URL('https://API.Example.COM./v1'))).toBeUndefined()
    expect(policy.urlRefusal(new URL('https://a.b.corp.example/'))).toBeUndefined()
    expect(policy.urlRefusal(new URL('https://corp.example/'))).toMatch(/not in JUDGEFLOW_HTTP_ALLOW \(api\.example\.com, \*\.corp\.example\)/)
    expect(policy.urlRefusal(new URL('https://evilcorp.example/'))).toMatch(/not in JUDGEFLOW_HTTP_ALLOW/)
    expect(policy.urlRefusal(new URL('https://example.com/'))).toMatch(/not in JUDGEFLOW_HTTP_ALLOW/)
    expect(policy.urlRefusal(new URL('http://93.184.216.34/'))).toMatch(/not in JUDGEFLOW_HTTP_ALLOW/)
  })

  it('lets a listed name reach a private or loopback address, and a listed address or range be reached under any name', () => {
    const policy = new CheckedPolicy({ guard: true, allow: ['localhost', '*.internal', '10.0.0.0/8', '[::1]', '127.0.0.1'] })
    expect(policy.addressRefusal('localhost', '127.0.0.1')).toBeUndefined()
    expect(policy.addressRefusal('svc.internal', '192.168.0.4')).toBeUndefined()
    expect(policy.urlRefusal(new URL('http://10.200.3.4/'))).toBeUndefined()
    expect(policy.urlRefusal(new URL('http://[::ffff:10.0.0.1]/'))).toBeUndefined()
    expect(policy.urlRefusal(new URL('http://[::1]:3000/'))).toBeUndefined()
    expect(policy.urlRefusal(new URL('http://127.0.0.1/'))).toBeUndefined()
    // An unlisted name waits for its addresses, which then decide.
    expect(policy.urlRefusal(new URL('http://db.example/'))).toBeUndefined()
    expect(policy.addressRefusal('db.example', '10.9.9.9')).toBeUndefined()
    expect(policy.addressRefusal('db.example', '192.168.0.4')).toMatch(/not in JUDGEFLOW_HTTP_ALLOW/)
    expect(policy.urlRefusal(new URL('http://127.0.0.2/'))).toMatch(/not in JUDGEFLOW_HTTP_ALLOW/)
    expect(policy.urlRefusal(new URL('http://11.0.0.1/'))).toMatch(/not in JUDGEFLOW_HTTP_ALLOW/)
  })

  it('refuses everything with an empty allow list', () => {
    const policy = new CheckedPolicy({ guard: true, allow: [] })
    expect(policy.urlRefusal(new URL('https://example.com/'))).toMatch(/not in JUDGEFLOW_HTTP_ALLOW \(nothing\)/)
  })
})

describe('allow patterns', () => {
  it('reads names, wildcards, addresses and CIDR ranges', () => {
    expect(parseAllowPatterns(['API.example.com.', '*.example.com', '127.0.0.1', '::1', '[fd00::1]', '10.0.0.0/8', 'fd00::/8', 'bücher.example']).map(p => p.kind))
      .toEqual(['name', 'under', 'range', 'range', 'range', 'range', 'range', 'name'])
    const policy = new CheckedPolicy({ guard: true, allow: ['bücher.example'] })
    expect(policy.urlRefusal(new URL('https://bücher.example/'))).toBeUndefined()
  })

  it.each(['', '*', '*.', 'http://example.com', 'example.com:8080', 'exa mple.com', '10.0.0.0/33', '10.0.0.0/8/2', 'a.*.example.com', '::1/129', '0x7f.1/8', '0x7f.1', '2130706433', 'user@example.com'])('refuses "%s" naming it', (pattern) => {
    let thrown: unknown
    try {
      parseAllowPatterns(['api.example.com', pattern])
    }
    catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(JudgeflowError)
    expect((thrown as JudgeflowError).code).toBe('INVALID_CONFIG')
    expect((thrown as JudgeflowError).message).toContain(`"${pattern}" is not a host pattern for JUDGEFLOW_HTTP_ALLOW`)
  })
})

describe('specialRange', () => {
  it('names the range of non-public addresses and nothing for public ones', () => {
    expect(specialRange(ipaddr.parse('8.8.8.8'))).toBeUndefined()
    expect(specialRange(ipaddr.parse('2001:4860:4860::8888'))).toBeUndefined()
    expect(specialRange(ipaddr.parse('::ffff:169.254.1.1'))).toBe('linkLocal')
    expect(specialRange(ipaddr.parse('64:ff9b::7f00:1'))).toBe('loopback')
    expect(specialRange(ipaddr.parse('64:ff9b:1::1'))).toBe('rfc6052')
    expect(specialRange(ipaddr.parse('2002:a00:1::'))).toBe('6to4')
    expect(specialRange(ipaddr.parse('::7f00:1'))).toBe('loopback')
    expect(specialRange(ipaddr.parse('::808:808'))).toBeUndefined()
  })
})
