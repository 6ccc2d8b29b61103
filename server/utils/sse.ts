import type { H3Event } from 'h3'
import type { RunEventRow } from '../../db'

/** The wire form of a stored run event: its row id is the SSE id, its type the SSE event name. */
export function eventPayload(row: RunEventRow) {
  return { id: row.id, type: row.type, at: row.at, ...row.data }
}

/** A raw Server-Sent Events response with ordered writes, heartbeats and close detection. */
export function openEventStream(event: H3Event, heartbeatMs = 15_000) {
  const res = event.node.res
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'connection': 'keep-alive',
    'x-accel-buffering': 'no',
  })
  res.write('retry: 2000\n\n')
  let closed = false
  const onClose: Array<() => void> = []
  const heartbeat = setInterval(() => { if (!closed) res.write(': keep-alive\n\n') }, heartbeatMs)
  const done = new Promise<void>((resolve) => {
    res.on('close', () => {
      closed = true
      clearInterval(heartbeat)
      for (const fn of onClose) fn()
      resolve()
    })
  })
  return {
    get closed() {
      return closed
    },
    send(row: RunEventRow) {
      if (closed) return
      res.write(`id: ${row.id}\nevent: ${row.type}\ndata: ${JSON.stringify(eventPayload(row))}\n\n`)
    },
    /** Resolves once the client has taken what was written (or is gone): a replay never buffers a whole run. */
    drained(): Promise<void> {
      if (closed || !res.writableNeedDrain) return Promise.resolve()
      return new Promise(resolve => res.once('drain', resolve).once('close', resolve))
    },
    end() {
      if (closed) return
      closed = true
      clearInterval(heartbeat)
      res.end()
    },
    onClose(fn: () => void) {
      onClose.push(fn)
    },
    done,
  }
}
