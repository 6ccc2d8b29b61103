/**
 * The visual editor on a cold browser: how much JavaScript opening it costs, how long until a
 * 200-step workflow can be worked on, and how closely a dragged step follows the pointer.
 * Drives the built app (`JUDGEFLOW_OUTPUT_DIR`, default `.output`) in Chromium.
 */
import { rmSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { chromium, type Browser, type Page } from '@playwright/test'
import playwrightConfig from '../playwright.config'
import { startAppServer } from '../tests/support/app-server'
import type { WorkflowEdge, WorkflowInput, WorkflowNode } from '../engine/schema/workflow'
import { median, percentile, report } from './lib'

const NODE_COUNT = 200
const LOADS = 5
const MOVES = 30
const VIEWPORT = { width: 1280, height: 720 }
const OUTPUT_DIR = resolve(import.meta.dirname, '..', process.env.JUDGEFLOW_OUTPUT_DIR ?? '.output')

/**
 * A valid 200-node workflow: an input, 33 gates of six steps (llm with a pinned answer,
 * evaluator, condition, retry, a failing output, an output logging the score) chained
 * through each condition's `true` branch, and a passing output. Laid out on a grid.
 */
export function largeWorkflow(): WorkflowInput {
  const nodes: WorkflowNode[] = [{ id: 'in', type: 'input', config: {} }]
  const edges: WorkflowEdge[] = []
  let previous: WorkflowEdge = { from: 'in', to: '' }
  for (let g = 0; g < (NODE_COUNT - 2) / 6; g++) {
    const id = (step: string) => `${step}${String(g).padStart(2, '0')}`
    nodes.push(
      { id: id('draft'), type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Answer {{input.question}}' }, pinned: [`answer ${g}`] },
      { id: id('judge'), type: 'evaluator', config: {
        evaluation_type: 'criteria', model: 'local:heuristic', pass_threshold: 0.5, content: `{{steps.${id('draft')}.text}}`,
        criteria: [{ name: 'relevance', description: 'answers the question', weight: 1 }],
      } },
      { id: id('check'), type: 'condition', config: { left: `{{steps.${id('judge')}.passed}}`, op: 'eq', right: true } },
      { id: id('again'), type: 'retry', config: { target: id('draft'), max_attempts: 2 } },
      { id: id('ko'), type: 'output', config: { verdict: 'fail', value: `{{steps.${id('judge')}.feedback}}` } },
      { id: id('score'), type: 'output', config: { value: `{{steps.${id('judge')}.overall_score}}` } },
    )
    edges.push(
      { ...previous, to: id('draft') },
      { from: id('draft'), to: id('judge') },
      { from: id('judge'), to: id('check') },
      { from: id('check'), to: id('again'), when: 'false' },
      { from: id('again'), to: id('ko'), when: 'exhausted' },
      { from: id('check'), to: id('score'), when: 'true' },
    )
    previous = { from: id('check'), to: '', when: 'true' }
  }
  nodes.push({ id: 'ok', type: 'output', config: { verdict: 'pass' } })
  edges.push({ ...previous, to: 'ok' })
  const columns = 14
  return {
    name: 'bench: 200 steps',
    nodes: nodes.map((node, i) => ({ ...node, position: { x: (i % columns) * 220, y: Math.floor(i / columns) * 120 } })),
    edges,
  }
}

export async function benchEditor(): Promise<void> {
  const server = await startAppServer({ entry: join(OUTPUT_DIR, 'server', 'index.mjs') })
  // The browser Playwright's tests use: Debian's Chromium where installed, else Playwright's own.
  const browser = await chromium.launch(playwrightConfig.use?.launchOptions)
  try {
    const workflow = largeWorkflow()
    const created = await fetch(`${server.url}/api/workflows`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(workflow) })
    if (created.status !== 201) throw new Error(`creating the workflow answered ${created.status}: ${await created.text()}`)
    const url = `${server.url}/workflows/${((await created.json()) as { id: string }).id}`
    // A step in the opening view: a workflow this large opens at the readable zoom, showing its
    // start (the rest is panned to), so a step in its middle is off screen until then.
    const probed = workflow.nodes[1]!.id

    // The first load also warms the server up, so the timed loads below see a running server.
    const scripts = await loadedJavaScript(browser, url)
    const gzipBytes = scripts.reduce((sum, file) => sum + file.gzipBytes, 0)
    report({ name: 'editor route JavaScript, gzip -9, cold load (preloads and idle-time prefetches included)', value: gzipBytes / 1024, unit: 'KB', target: '<= 350' })

    const loads: number[] = []
    for (let i = 0; i < LOADS; i++) loads.push(await timeToInteractive(browser, url, probed))
    report({ name: `editor time to interactive, ${NODE_COUNT}-node workflow (all nodes rendered, a click opens the node's settings; median of ${LOADS} cold loads)`, value: median(loads), unit: 'ms', target: '<= 1500' })

    const latencies = await dragLatencies(browser, url, probed)
    // A move waits up to one 60 Hz frame for the next rendering opportunity, and its work has to
    // fit in that frame for the drag to stay at 60 fps: two frames, 33 ms, from input to paint.
    report({ name: `drag responsiveness on the ${NODE_COUNT}-node workflow (pointer move to the painted frame, p95 of ${MOVES} moves)`, value: percentile(latencies, 95), unit: 'ms', target: '<= 33' })
  }
  finally {
    await browser.close()
    await server.stop()
    rmSync(dirname(server.dbPath), { recursive: true, force: true })
  }
}

const nodeSelector = (id: string) => `.vue-flow__node[data-id="${id}"]`

async function withPage<T>(browser: Browser, use: (page: Page) => Promise<T>): Promise<T> {
  // A new context has an empty HTTP cache: every load is cold.
  const context = await browser.newContext({ viewport: VIEWPORT })
  try {
    return await use(await context.newPage())
  }
  finally {
    await context.close()
  }
}

async function allNodesRendered(page: Page): Promise<void> {
  // Vue Flow renders every node (the canvas does not set `only-render-visible-elements`).
  await page.waitForFunction(count => document.querySelectorAll('.vue-flow__node').length >= count, NODE_COUNT, { polling: 'raf' })
}

/**
 * Every JavaScript file a cold load of the editor fetches: module preloads, the modules
 * themselves, and what the page prefetches once idle (NuxtLink: idle callback, then visibility).
 */
async function loadedJavaScript(browser: Browser, url: string) {
  return withPage(browser, async (page) => {
    const bodies = new Map<string, Promise<Buffer>>()
    page.on('response', (response) => {
      // Module preloads come as resource type "other"; the content type names them.
      const isScript = response.request().resourceType() === 'script' || /javascript/.test(response.headers()['content-type'] ?? '')
      if (isScript && !bodies.has(response.url())) bodies.set(response.url(), response.body())
    })
    await page.goto(url, { waitUntil: 'networkidle' })
    await allNodesRendered(page)
    for (let seen = -1; seen !== bodies.size;) {
      seen = bodies.size
      for (let i = 0; i < 3; i++) await page.evaluate(() => new Promise(settle => requestIdleCallback(() => requestAnimationFrame(settle))))
      await page.waitForTimeout(500)
      await Promise.all(bodies.values())
    }
    return Promise.all([...bodies].map(async ([file, body]) => ({ file, gzipBytes: gzipSync(await body, { level: 9 }).length })))
  })
}

/** Navigation start until every node is on the canvas and a click on one shows its settings. */
async function timeToInteractive(browser: Browser, url: string, nodeId: string): Promise<number> {
  return withPage(browser, async (page) => {
    await page.goto(url, { waitUntil: 'commit' })
    await allNodesRendered(page)
    await page.locator(nodeSelector(nodeId)).click()
    const opened = await page.waitForFunction(
      // The header names the step: "<name> · <type>" with its id beside, or "<id> · <type>" when it has no name.
      (id) => {
        const heading = document.querySelector('aside[aria-label="Step settings"] h2')
        const shown = heading?.querySelector('code')?.textContent ?? heading?.textContent?.split(' · ')[0]?.trim()
        return shown === id && performance.now()
      },
      nodeId, { polling: 'raf' })
    return opened.jsonValue() as Promise<number>
  })
}

/**
 * Drags a node and times each pointer move in the page, from the event's timestamp until the
 * node's transform has changed and that frame has been rendered: a requestAnimationFrame
 * callback, then a message posted from it, which runs after the frame's style, layout and paint.
 */
async function dragLatencies(browser: Browser, url: string, nodeId: string): Promise<number[]> {
  return withPage(browser, async (page) => {
    await page.goto(url)
    await allNodesRendered(page)
    const node = page.locator(nodeSelector(nodeId))
    await page.evaluate(installDragProbe, nodeSelector(nodeId))
    const start = (await node.boundingBox())!
    let x = start.x + start.width / 2
    let y = start.y + start.height / 2
    await page.mouse.move(x, y)
    await page.mouse.down()
    // Vue Flow starts the drag on the first move and moves the node from the next one on.
    await page.mouse.move(x += 4, y += 2)
    const latencies: number[] = []
    for (let i = 1; i <= MOVES; i++) {
      await page.mouse.move(x += 4, y += 2)
      const latency = await page.evaluate(() => (window as unknown as DragProbeWindow).dragProbe.next)
      if (latency === null) throw new Error(`the node did not follow pointer move ${i} within a second`)
      latencies.push(latency)
    }
    await page.mouse.up()
    const end = (await node.boundingBox())!
    if (Math.abs(end.x - start.x) < 1 && Math.abs(end.y - start.y) < 1) throw new Error(`node ${nodeId} did not move: it is still at ${start.x}, ${start.y}`)
    return latencies
  })
}

interface DragProbeWindow { dragProbe: { next: Promise<number | null> } }

/** Runs in the page. No function here may get a name: the TypeScript loader would wrap it in a helper the page lacks. */
function installDragProbe(selector: string): void {
  const node = document.querySelector<HTMLElement>(selector)!
  const probe: DragProbeWindow['dragProbe'] = { next: Promise.resolve(null) }
  ;(window as unknown as DragProbeWindow).dragProbe = probe
  let pending: { start: number, timer: ReturnType<typeof setTimeout>, settle: (latency: number | null) => void } | null = null
  addEventListener('mousemove', (event) => {
    probe.next = new Promise((settle) => {
      pending = { start: event.timeStamp, timer: setTimeout(settle, 1000, null), settle }
    })
  }, { capture: true })
  let shown = node.style.transform
  new MutationObserver(() => {
    const move = pending
    if (!move || node.style.transform === shown) return
    shown = node.style.transform
    pending = null
    requestAnimationFrame(() => {
      const channel = new MessageChannel()
      channel.port1.onmessage = () => {
        clearTimeout(move.timer)
        move.settle(performance.now() - move.start)
      }
      channel.port2.postMessage(null)
    })
  }).observe(node, { attributes: true, attributeFilter: ['style'] })
}
