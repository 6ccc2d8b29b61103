import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { FakeLLM } from '../tests/support/fake-llm'
import { startAppServer } from '../tests/support/app-server'
import { startReviewRound } from '../tests/support/experiments'
import { median, report } from './lib'

const FOLLOWERS = 300
const BURSTS = 5
const contract = Array.from({ length: 300 }, (_, i) => `Clause ${i + 1}: the supplier's liability under this clause is unlimited.`).join('\n')

/** Health answer times (ms) from a poller in its own process while `work` runs. */
export async function healthTimesDuring(url: string, work: () => Promise<void>): Promise<number[]> {
  const poller = spawn(process.execPath, [resolve(import.meta.dirname, 'health-poller.mjs'), url], { stdio: ['ignore', 'pipe', 'inherit'] })
  let output = ''
  poller.stdout.on('data', (chunk) => {
    output += chunk
  })
  await new Promise(done => setTimeout(done, 300))
  await work()
  await new Promise(done => setTimeout(done, 300))
  const exited = new Promise(done => poller.once('exit', done))
  poller.kill('SIGTERM')
  await exited
  return JSON.parse(output) as number[]
}

/**
 * 300 followers of a running round connect in the same instant (a team opening the round's page,
 * clients reconnecting after a restart), five times, while a load balancer's health probe asks
 * every 20 ms: the slowest health answer.
 */
export async function benchFollowers() {
  const fake = await new FakeLLM().start()
  fake.onRequest(() => ({ text: 'review: unlimited liability', delayMs: 60_000 }))
  const server = await startAppServer({ env: { ...fake.env(), JUDGEFLOW_MAX_SSE_PER_CLIENT: '1000' } })
  try {
    const { experiment } = await startReviewRound(server, { name: 'followed', documents: ['d1', 'd2'].map(id => ({ id, text: contract })), runs_per_document: 4 })
    const slowest: number[] = []
    const setup: number[] = []
    for (let burst = 0; burst < BURSTS; burst++) {
      const controller = new AbortController()
      const times = await healthTimesDuring(`${server.url}/api/health`, async () => {
        const t0 = performance.now()
        const connections = await Promise.all(Array.from({ length: FOLLOWERS }, () => fetch(`${server.url}/api/experiments/${experiment.id}/rounds/1/events`, { signal: controller.signal })))
        setup.push(performance.now() - t0)
        const refused = connections.filter(c => c.status !== 200).length
        if (refused) throw new Error(`${refused} of ${FOLLOWERS} followers were refused`)
      })
      controller.abort()
      slowest.push(Math.max(...times))
      await new Promise(done => setTimeout(done, 300))
    }
    report({ name: `GET /api/health slowest answer while ${FOLLOWERS} round followers connect at once (worst of ${BURSTS} bursts)`, value: Math.round(Math.max(...slowest)), unit: 'ms', target: '<= 200' })
    report({ name: `${FOLLOWERS} round followers connecting at once: all streams open (median of ${BURSTS})`, value: Math.round(median(setup)), unit: 'ms', target: 'reported' })
  }
  finally {
    await server.stop()
    await fake.stop()
  }
}
