/**
 * The dataset run report page on a cold browser: a 10,000-case run (labelled, against a
 * baseline) stored beforehand, then opened until its per-case table answers a filter.
 * Drives the built app (`JUDGEFLOW_OUTPUT_DIR`, default `.output`) in Chromium.
 */
import { rmSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { chromium, type Browser } from '@playwright/test'
import playwrightConfig from '../playwright.config'
import { createSqliteStore, openDatabase } from '../db'
import type { DatasetCase, DatasetReport } from '../engine/datasets'
import { startAppServer, tempDbPath } from '../tests/support/app-server'
import { median, report } from './lib'

const LOADS = 5
const VIEWPORT = { width: 1440, height: 900 }
const OUTPUT_DIR = resolve(import.meta.dirname, '..', process.env.JUDGEFLOW_OUTPUT_DIR ?? '.output')

/** Stores the dataset and two finished runs of it (the baseline first); the later run's id. */
async function seed(dbPath: string, cases: DatasetCase[], baseline: DatasetReport, current: DatasetReport): Promise<string> {
  const store = createSqliteStore(openDatabase(dbPath))
  try {
    const dataset = await store.datasets.create('bench: 10,000 cases', cases)
    let id = ''
    for (const built of [baseline, current]) {
      const run = await store.datasets.createRun({ datasetId: dataset.id, datasetVersion: dataset.version, target: { evaluator: {}, fields: ['content'] }, options: { concurrency: 8, repeat: 1 } })
      const stored = { ...built, dataset: { id: dataset.id, name: dataset.name, version: dataset.version }, dataset_run_id: run.id }
      await store.datasets.updateRun(run.id, { status: 'finished', report: stored as unknown as Record<string, unknown>, finishedAt: Date.now() })
      id = run.id
    }
    return id
  }
  finally {
    await store.close()
  }
}

export async function benchDatasetReportPage(cases: DatasetCase[], baseline: DatasetReport, current: DatasetReport): Promise<void> {
  const dbPath = tempDbPath()
  const runId = await seed(dbPath, cases, baseline, current)
  const server = await startAppServer({ dbPath, entry: join(OUTPUT_DIR, 'server', 'index.mjs') })
  const browser = await chromium.launch(playwrightConfig.use?.launchOptions)
  try {
    const url = `${server.url}/dataset-runs/${runId}`
    const failed = current.results.filter(r => r.status === 'succeeded' && r.verdict !== 'pass').length
    // The first load warms the server up.
    await timeToInteractive(browser, url, failed)
    const loads: number[] = []
    const answers: number[] = []
    const drawn: number[] = []
    let inDom = 0
    for (let i = 0; i < LOADS; i++) {
      const { ms, rows, answered, firstRow } = await timeToInteractive(browser, url, failed)
      loads.push(ms)
      answers.push(answered)
      drawn.push(firstRow)
      inDom = rows
    }
    report({ name: `dataset report page time to interactive, ${current.results.length.toLocaleString('en')} case runs (report drawn, the per-case table filtered to the failed; median of ${LOADS} cold loads)`, value: median(loads), unit: 'ms', target: '<= 1500' })
    report({ name: 'of which: navigation start until the report\'s API answer has arrived (median)', value: median(answers), unit: 'ms', target: 'reported' })
    report({ name: 'of which: navigation start until the first case row is drawn (median)', value: median(drawn), unit: 'ms', target: 'reported' })
    report({ name: 'rows of the per-case table in the page after the filter (virtualised)', value: inDom, unit: 'rows', target: 'reported' })
  }
  finally {
    await browser.close()
    await server.stop()
    rmSync(dirname(dbPath), { recursive: true, force: true })
  }
}

/** Navigation start until the report is drawn and a click on "failed" has filtered the table. */
async function timeToInteractive(browser: Browser, url: string, failed: number): Promise<{ ms: number, rows: number, answered: number, firstRow: number }> {
  const context = await browser.newContext({ viewport: VIEWPORT })
  try {
    const page = await context.newPage()
    await page.goto(url, { waitUntil: 'commit' })
    const firstRow = await (await page.waitForFunction(() => document.querySelector('[data-testid="case-row"]') && performance.now(), undefined, { polling: 'raf' })).jsonValue() as number
    await page.getByTestId('filter-failed').click()
    const handle = await page.waitForFunction(
      label => document.querySelector('[data-testid="filter-failed"]')?.getAttribute('aria-pressed') === 'true'
        && document.querySelector('[data-testid="filter-failed"]')?.textContent?.trim() === label
        && Array.from(document.querySelectorAll('[data-testid="case-row"]')).every(row => row.classList.contains('failed'))
        && performance.now(),
      `failed (${failed})`, { polling: 'raf' })
    const ms = await handle.jsonValue() as number
    const answered = await page.evaluate(() => (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find(e => /\/api\/dataset-runs\/[^/]+$/.test(e.name))?.responseEnd ?? Number.NaN)
    return { ms, rows: await page.getByTestId('case-row').count(), answered, firstRow }
  }
  finally {
    await context.close()
  }
}
