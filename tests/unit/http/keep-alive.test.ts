import { createServer, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AddressPolicy } from '../../../engine/http/address-policy'
import { httpCall } from '../../../engine/http/request'
import { offMachineAttempts, socketsDuring } from './loopback'

let server: Server
let url: string
/** Requests served per connection, in order; `drop` makes the server close a connection's second request unanswered. */
const served = new Map<Socket, number>()
let drop = false

beforeAll(async () => {
  server = createServer((req, res) => {
    const count = (served.get(req.socket) ?? 0) + 1
    served.set(req.socket, count)
    if (drop && count > 1) {
      req.socket.destroy()
      return
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`request ${count} on this connection`)
  })
  await new Promise<void>(done => server.listen(0, '127.0.0.1', done))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise(done => server.close(done))
  expect(offMachineAttempts).toEqual([])
})

describe('connections kept alive', () => {
  it('reuses one connection for a policy\'s calls one after another', async () => {
    const policy: AddressPolicy = { guard: false }
    served.clear()
    const { sockets } = await socketsDuring(async () => {
      for (let i = 0; i < 3; i++) await httpCall({ url, policy })
    })
    expect(sockets).toHaveLength(1)
    expect([...served.values()]).toEqual([3])
  })

  it('never lends one policy\'s connection to another policy\'s call', async () => {
    served.clear()
    const { sockets } = await socketsDuring(async () => {
      await httpCall({ url, policy: { guard: false } })
      await httpCall({ url, policy: { guard: true, allow: ['127.0.0.1'] } })
    })
    expect(sockets).toHaveLength(2)
  })

  it('sends a call again on a new connection when the server closed the pooled one without answering', async () => {
    const policy: AddressPolicy = { guard: false }
    served.clear()
    drop = true
    try {
      expect((await httpCall({ url, policy })).text).toBe('request 1 on this connection')
      const second = await httpCall({ url, policy })
      expect(second.text).toBe('request 1 on this connection')
      expect(second.attempts).toBe(1)
    }
    finally {
      drop = false
    }
  })
})
