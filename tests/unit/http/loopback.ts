/**
 * What the engine/http tests run against: real HTTP servers on 127.0.0.1 (no mocked request), and a
 * watch over every client socket the process creates, through Node's diagnostics channel, with the
 * connection attempts each one makes. A connection attempt to anything but loopback is stopped at
 * once and recorded: these tests never send traffic off the machine.
 */
import diagnostics from 'node:diagnostics_channel'
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

export interface Hit {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
  at: number
}

export interface Loopback {
  /** `http://127.0.0.1:<port>`. */
  url: string
  port: number
  hits: Hit[]
  close: () => Promise<void>
}

/** An HTTP server on 127.0.0.1 answering with `handler`; every request is recorded with its body. */
export async function loopbackServer(handler: (req: IncomingMessage, res: ServerResponse, hit: Hit) => void): Promise<Loopback> {
  const hits: Hit[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const hit = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString(), at: Date.now() }
      hits.push(hit)
      handler(req, res, hit)
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }
}

export interface WatchedSocket {
  /** `ip:port` of each connection attempt, in order. */
  attempts: string[]
}

const watched: WatchedSocket[] = []
/** Connection attempts to an address other than loopback (stopped as they started). */
export const offMachineAttempts: string[] = []

diagnostics.subscribe('net.client.socket', (message) => {
  const socket = (message as { socket: Socket }).socket
  const entry: WatchedSocket = { attempts: [] }
  watched.push(entry)
  socket.on('connectionAttempt', (ip: string, port: number) => {
    entry.attempts.push(`${ip}:${port}`)
    if (ip !== '127.0.0.1' && ip !== '::1') {
      offMachineAttempts.push(`${ip}:${port}`)
      socket.destroy()
    }
  })
})

/** The client sockets created while `work` ran, with their connection attempts, and what `work` gave or threw. */
export async function socketsDuring<T>(work: () => Promise<T>): Promise<{ sockets: WatchedSocket[], result?: T, error?: unknown }> {
  const from = watched.length
  try {
    const result = await work()
    return { sockets: watched.slice(from), result }
  }
  catch (error) {
    return { sockets: watched.slice(from), error }
  }
}
