/**
 * HTTP spoken by hand over a loopback socket, for what fetch cannot do: send a request's headers
 * and part of its body, then nothing more (a stalled upload), and watch what the server answers
 * and whether it closes the connection.
 */
import { connect } from 'node:net'

export interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: { message?: string, [key: string]: unknown } | string
}

export interface StalledRequest {
  /** The server's answer; 'none' when none came within the wait. */
  answer: Promise<RawAnswer | 'none'>
  /** Whether the server closed the connection within the wait (a client that gave up is not counted). */
  closed: Promise<boolean>
  /** Ends the connection from the client's side. */
  destroy(): void
}

/** The start line and headers of a request, with the blank line that ends them. */
export function requestHead(method: string, path: string, headers: Record<string, string>): string {
  return `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`
}

/** Sends `head` and `body` (all or part of the request's body) to 127.0.0.1:`port`, then nothing more. */
export function stalledRequest(port: number, head: string, body: string | Buffer = '', waitMs = 5_000): StalledRequest {
  const socket = connect(port, '127.0.0.1')
  socket.on('error', () => {})
  socket.write(head)
  if (body.length) socket.write(body)
  let received = Buffer.alloc(0)
  let resolveAnswer: (answer: RawAnswer) => void = () => {}
  const answered = new Promise<RawAnswer>((resolve) => {
    resolveAnswer = resolve
  })
  const tryParse = () => {
    const text = received.toString('latin1')
    const end = text.indexOf('\r\n\r\n')
    if (end < 0) return
    const [statusLine, ...lines] = text.slice(0, end).split('\r\n')
    const headers = Object.fromEntries(lines.map(line => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]))
    const length = Number(headers['content-length'] ?? 0)
    if (received.length < end + 4 + length) return
    const raw = received.subarray(end + 4, end + 4 + length).toString('utf8')
    let parsed: RawAnswer['body'] = raw
    try {
      parsed = JSON.parse(raw) as RawAnswer['body']
    }
    catch { /* not JSON */ }
    resolveAnswer({ status: Number(statusLine!.split(' ')[1]), headers, body: parsed })
  }
  socket.on('data', (chunk) => {
    received = Buffer.concat([received, chunk])
    tryParse()
  })
  let givenUp = false
  const closedByServer = new Promise<boolean>(resolve => socket.once('close', () => resolve(!givenUp)))
  return {
    answer: within(answered, waitMs, 'none' as const),
    closed: within(closedByServer, waitMs, false),
    destroy() {
      givenUp = true
      socket.destroy()
    },
  }
}

function within<T, F>(promise: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([promise, new Promise<F>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms)
  })]).finally(() => clearTimeout(timer))
}
