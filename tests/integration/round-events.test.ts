import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FakeLLM } from '../support/fake-llm'
import { parseSse, startAppServer, type AppServer } from '../support/app-server'
import { startReviewRound } from '../support/experiments'

const fake = new FakeLLM()
let server: AppServer
beforeAll(async () => {
  await fake.start()
  // One test client stands for many: all its connections come from 127.0.0.1.
  server = await startAppServer({ env: { ...fake.env(), JUDGEFLOW_MAX_SSE_PER_CLIENT: '1000' } })
})
afterAll(async () => {
  await server?.stop()
  await fake.stop()
})

const FOLLOWERS = 300
/** A contract of some length (about 24 kB), as reviews get: every run of the round carries it as its input. */
const contract = Array.from({ length: 300 }, (_, i) => `Clause ${i + 1}: the supplier's liability under this clause is unlimited.`).join('\n')

describe('following a round', () => {
  it(`${FOLLOWERS} followers of a running round: the server keeps answering, and every follower hears the same progress to round.finished`, async () => {
    fake.onRequest(() => ({ text: 'review: unlimited liability', delayMs: 5000 }))
    const { experiment, started } = await startReviewRound(server, { name: 'followed', documents: ['d1', 'd2'].map(id => ({ id, text: contract })), runs_per_document: 4 })
    expect(started.status).toBe(202)

    // Followers connect, 30 at a time, while a health check with a one-second timeout, as a load
    // balancer would probe, goes on until the round ends (the first follower hears its end).
    let roundGoingOn = true
    const probes: Array<number | string> = []
    const prober = (async () => {
      while (roundGoingOn) {
        probes.push(await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(1000) }).then(r => r.status, (error: Error) => error.name))
        await new Promise(resolve => setTimeout(resolve, 100))
      }
    })()
    const connecting: Array<Promise<Response>> = []
    for (let i = 0; i < FOLLOWERS; i++) {
      connecting.push(fetch(`${server.url}/api/experiments/${experiment.id}/rounds/1/events`, { signal: AbortSignal.timeout(60_000) }))
      if (i % 30 === 29) await new Promise(resolve => setTimeout(resolve, 50))
    }
    const connections = await Promise.all(connecting)
    expect(connections.filter(c => c.status !== 200)).toEqual([])
    const followers = connections.map(async c => parseSse(await c.text()))
    await Promise.race(followers)
    roundGoingOn = false
    await prober
    const streams = await Promise.all(followers)

    expect(probes.length).toBeGreaterThan(5)
    expect(probes.filter(p => p !== 200)).toEqual([])
    const longest = streams.reduce((a, b) => (b.length > a.length ? b : a))
    expect(longest.some(e => e.event === 'progress' && e.data.status === 'running')).toBe(true)
    for (const events of streams) {
      expect(events.at(-1)).toMatchObject({ event: 'round.finished', data: { status: 'finished', total: 16, done: 16, judged: 16 } })
      // The same messages from one shared source: each follower heard the tail from when it joined.
      expect(events.map(e => JSON.stringify(e))).toEqual(longest.slice(longest.length - events.length).map(e => JSON.stringify(e)))
    }
  }, 90_000)
})
