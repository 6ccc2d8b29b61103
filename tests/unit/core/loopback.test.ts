import { describe, expect, it } from 'vitest'
import { isLoopbackAddress, isLoopbackHost } from '../../../core/config'

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

  it('as a host name (a Host header\'s, HOST), adds localhost and nothing else', () => {
    for (const host of ['localhost', 'LOCALHOST', '127.0.0.1', '[::1]', '[::ffff:127.0.0.1]']) expect(isLoopbackHost(host), host).toBe(true)
    for (const host of ['localhost.', 'localhost.attacker.example', '127.attacker.example', '127.0.0.1.nip.io', 'evil.example', '', undefined]) {
      expect(isLoopbackHost(host), host).toBe(false)
    }
  })
})
