import type { H3Event } from 'h3'
import type { RunEventRow } from '~~/core'
import { JudgeflowError } from '~~/engine/errors'
import { clientAddress } from './clients'
import { judgeflowConfig } from './config'
import { presentEvent } from './present'

/**
 * A live event goes to every follower of its run as the same row object: it is presented and
 * serialised once, not once per follower.
 */
const presented = new WeakMap<RunEventRow, string>()
function eventText(row: RunEventRow): string {
  let text = presented.get(row)
  if (text === undefined) presented.set(row, text = JSON.stringify(presentEvent(row)))
  return text
}

const openByClient = new Map<string, number>()

/** Streams set up per turn of the event loop when many arrive at once. */
const STREAMS_PER_TURN = 16
const waitingForTurn: Array<() => void> = []
let turnsScheduled = false

function nextTurn(): void {
  for (const admit of waitingForTurn.splice(0, STREAMS_PER_TURN)) admit()
  if (waitingForTurn.length) setImmediate(nextTurn)
  else turnsScheduled = false
}

/**
 * Resolves when this stream may be set up. Hundreds of followers connecting in the same instant
 * (a dashboard opened by a whole team, clients reconnecting after a restart) are set up a few
 * per turn of the event loop, so other requests — health checks first of all — are answered in
 * between rather than after all of them.
 */
export function streamTurn(): Promise<void> {
  return new Promise((admit) => {
    waitingForTurn.push(admit)
    if (turnsScheduled) return
    turnsScheduled = true
    setImmediate(nextTurn)
  })
}

/**
 * Counts the client's open event streams (run and round alike) against JUDGEFLOW_MAX_SSE_PER_CLIENT:
 * past it, a 429 saying so. Returns the release, called once when the stream closes.
 */
function takeStreamSlot(event: H3Event): () => void {
  const client = clientAddress(event)
  const max = judgeflowConfig().server.maxStreamsPerClient
  const open = openByClient.get(client) ?? 0
  if (open >= max) {
    throw new JudgeflowError('TOO_MANY_STREAMS', `${open} event streams are already open from ${client}, the most one client may hold (JUDGEFLOW_MAX_SSE_PER_CLIENT, ${max}). Close some (other tabs following runs or rounds) and try again.`)
  }
  openByClient.set(client, open + 1)
  let released = false
  return () => {
    if (released) return
    released = true
    const left = (openByClient.get(client) ?? 1) - 1
    if (left > 0) openByClient.set(client, left)
    else openByClient.delete(client)
  }
}

/**
 * A raw Server-Sent Events response with ordered writes, heartbeats and close detection; a 429
 * instead when the client already holds as many streams as it may.
 */
export function openEventStream(event: H3Event, heartbeatMs = 15_000) {
  const release = takeStreamSlot(event)
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
      release()
      for (const fn of onClose) fn()
      resolve()
    })
  })
  const write = (name: string, data: string, id?: number) => {
    if (!closed) res.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${name}\ndata: ${data}\n\n`)
  }
  return {
    get closed() {
      return closed
    },
    /** A stored run event, with its id. */
    send(row: RunEventRow) {
      write(row.type, eventText(row), row.id)
    },
    /** Resolves once the client has taken what was written (or is gone): a replay never buffers a whole run. */
    drained(): Promise<void> {
      if (closed || !res.writableNeedDrain) return Promise.resolve()
      return new Promise(resolve => res.once('drain', resolve).once('close', resolve))
    },
    /** Any event: a name and its data as one line of JSON. */
    write,
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
