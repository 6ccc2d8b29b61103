import { describe, expect, it } from 'vitest'
import { isLoopbackAddress, isLoopbackHost } from '../../../core/config'
import { isAllowedHost } from '../../../server/utils/hosts'

describe('loopback: only literal addresses and localhost', () => {
  it('takes 127.0.0.0/8 as four decimal octets, ::1 and IPv4-mapped loopback', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '127.255.255.255', '::1', '[::1]', '::ffff:127.0.0.1', '[::ffff:127.9.8.7]', '::ffff:7f00:1', '0:0:0:0:0:0:0:1']) {
      expect(isLoopbackAddress(address), address).toBe(true)
    }
  })

  it('refuses DNS names that start with 127., other addresses and malformed ones', () => {
    for (const address of [
      '127.attacker.example', '127.0.0.1.nip.io', '127.0.0.1.', '127.0.0', '127.1', '127.0.0.256', '127.0.0.01', '0x7f.0.0.1',
      '128.0.0.1', '10.0.0.1', '::2', '::ffff:10.0.0.1', '::ffff:8000:1', 'localhost', '', undefined, '[::1]@evil.example',
    ]) {
      expect(isLoopbackAddress(address), String(address)).toBe(false)
    }
  })

  it('as a host name, adds localhost and nothing else', () => {
    expect(isLoopbackHost('localhost')).toBe(true)
    expect(isLoopbackHost('LOCALHOST')).toBe(true)
    expect(isLoopbackHost('127.0.0.1')).toBe(true)
    for (const host of ['localhost.', 'localhost.attacker.example', '127.attacker.example', '127.0.0.1.nip.io', 'evil.example']) {
      expect(isLoopbackHost(host), host).toBe(false)
    }
  })
})

describe('isAllowedHost: the Host names answered without a token', () => {
  it('answers loopback literals and localhost with any port, and listed names', () => {
    for (const host of ['127.0.0.1', '127.0.0.1:3000', 'localhost:3000', '[::1]:80', '[::ffff:127.0.0.1]:3000']) expect(isAllowedHost(host, []), host).toBe(true)
    expect(isAllowedHost('judge.internal', ['judge.internal'])).toBe(true)
    expect(isAllowedHost('ci.example:8080', ['ci.example:8080'])).toBe(true)
    expect(isAllowedHost('ci.example:9090', ['ci.example:8080'])).toBe(false)
  })

  it('refuses names that only look like loopback (DNS rebinding)', () => {
    for (const host of ['127.attacker.example:3000', '127.attacker.example', '127.0.0.1.nip.io', '127.0.0.1.nip.io:3000', 'localhost.attacker.example', '', undefined]) {
      expect(isAllowedHost(host, []), String(host)).toBe(false)
    }
  })
})
