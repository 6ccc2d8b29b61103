import { readFileSync } from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'

/** What a dataset run leaves behind: the dataset page's list of runs, the threshold the report offers, and the HTML export. */
const EXAMPLES = new URL('../../examples/', import.meta.url)
const qualityGate = JSON.parse(readFileSync(new URL('quality-gate.json', EXAMPLES), 'utf8'))
const SUPPORT_CSV = readFileSync(new URL('datasets/support-questions.csv', EXAMPLES), 'utf8')

async function violations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze()
  return violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')}`)
}

/** A stored quality gate and the labelled support questions, named for this test. */
async function gateAndDataset(request: APIRequestContext, label: string) {
  const stamp = `${label} ${Date.now()}`
  const workflow = await (await request.post('/api/workflows', { data: { ...qualityGate, name: `Quality gate ${stamp}` } })).json()
  const dataset = await (await request.post('/api/datasets', { data: { name: `support ${stamp}`, format: 'csv', text: SUPPORT_CSV } })).json()
  return { workflow, dataset }
}

/** Starts a dataset run and waits for its end; its id. */
async function finishedRun(request: APIRequestContext, dataset: string, target: Record<string, unknown>): Promise<string> {
  const started = await request.post('/api/dataset-runs', { data: { dataset, target } })
  expect(started.status()).toBe(202)
  const { id } = await started.json()
  await expect.poll(async () => (await (await request.get(`/api/dataset-runs/${id}`)).json()).status, { timeout: 60_000 }).toBe('finished')
  return id
}

test('a run started from the dataset page is listed there as soon as it starts and as finished when it ends, without a reload', async ({ page, request }) => {
  test.setTimeout(90_000)
  const { workflow, dataset } = await gateAndDataset(request, 'listed')
  await page.goto(`/datasets/${dataset.id}`)
  const runs = page.getByRole('region', { name: 'Dataset runs' })
  await expect(runs).toContainText('Not run yet.')
  await page.getByTestId('run-on-dataset').click()
  const dialog = page.getByRole('dialog', { name: 'Run on a dataset' })
  await dialog.getByTestId('run-workflow').selectOption({ label: workflow.name })
  await dialog.getByTestId('start-dataset-run').click()
  await expect(dialog.getByTestId('dataset-run-status')).toHaveText(/^finished: 12 of 12 case runs done/, { timeout: 60_000 })
  // The list behind the dialog already holds the run, finished, with its link.
  await expect(runs).not.toContainText('Not run yet.')
  await expect(runs.getByRole('listitem')).toHaveCount(1)
  await expect(runs.getByRole('listitem')).toContainText('finished · workflow · v1')
  await page.screenshot({ path: 'test-results/ub/dataset-runs-listed.png' })
  await dialog.getByRole('button', { name: 'Close' }).click()
  await runs.getByRole('link').click()
  await expect(page.getByRole('heading', { name: 'Dataset run report' })).toBeVisible()
})

test('the report offers the recommended threshold only when the evaluator step does not use it already', async ({ page, request }) => {
  test.setTimeout(90_000)
  const { workflow, dataset } = await gateAndDataset(request, 'threshold')
  const runId = await finishedRun(request, dataset.id, { workflow_id: workflow.id })
  const { report } = await (await request.get(`/api/dataset-runs/${runId}`)).json()
  const recommended: number = report.agreement.recommended_threshold
  expect(recommended).not.toBe(0.6)
  await page.goto(`/dataset-runs/${runId}`)
  await expect(page.getByTestId('apply-threshold')).toHaveText(`Apply threshold ${recommended.toFixed(2)} to the evaluator step`)

  // The step is set to the recommended threshold (here through the API, as another tab would): nothing is left to apply.
  const stored = await (await request.get(`/api/workflows/${workflow.id}`)).json()
  const definition = structuredClone(stored.definition)
  definition.nodes.find((n: { id: string }) => n.id === 'judge').config.pass_threshold = recommended
  expect((await request.put(`/api/workflows/${workflow.id}`, { data: { ...definition, base_version: stored.version } })).status()).toBe(200)
  await page.reload()
  await expect(page.getByTestId('recommended-threshold')).toHaveText(recommended.toFixed(2))
  await expect(page.getByTestId('threshold-in-use')).toHaveText(`Step judge already uses the pass threshold ${recommended.toFixed(2)}.`)
  await expect(page.getByTestId('apply-threshold')).toHaveCount(0)
  await page.getByTestId('threshold-in-use').scrollIntoViewIfNeeded()
  await page.screenshot({ path: 'test-results/ub/threshold-in-use.png' })
  expect(await violations(page)).toEqual([])
})

test('the HTML export holds the agreement the report page shows: κ, the confusion matrix, each case\'s input and expected verdict', async ({ page, request }) => {
  test.setTimeout(90_000)
  const { workflow, dataset } = await gateAndDataset(request, 'export')
  const runId = await finishedRun(request, dataset.id, { workflow_id: workflow.id })
  const { report } = await (await request.get(`/api/dataset-runs/${runId}`)).json()
  const a = report.agreement
  const response = await request.get(`/api/dataset-runs/${runId}/report?format=html`)
  expect(response.headers()['content-type']).toContain('text/html')
  const html = await response.text()

  await page.setViewportSize({ width: 1280, height: 720 })
  await page.setContent(html)
  const agreement = page.getByRole('region', { name: `Agreement with people (${a.labelled} labelled cases)` })
  await expect(agreement).toBeVisible()
  await expect(agreement).toContainText(`Cohen's κ ${a.kappa}`)
  const matrix = agreement.getByRole('table', { name: 'Confusion matrix: expected verdict by judged verdict' })
  await expect(matrix.getByRole('row')).toHaveText([
    ['', 'judged pass', 'judged fail'].join(''),
    ['expected pass', a.confusion.pass_pass, a.confusion.pass_fail].join(''),
    ['expected fail', a.confusion.fail_pass, a.confusion.fail_fail].join(''),
  ])
  await expect(agreement).toContainText(`recommended pass threshold ${a.recommended_threshold}`)

  const cases = page.getByRole('table', { name: 'Cases' })
  await expect(cases.getByRole('columnheader')).toHaveText(['case', 'input', 'expected', 'judged', 'score', 'first failed check', 'reason', 'output'])
  const row = cases.getByRole('row').filter({ has: page.getByRole('cell', { name: 'reset-1', exact: true }) })
  const line = SUPPORT_CSV.split('\n').find(l => l.startsWith('reset-1,'))!
  await expect(row.getByRole('cell').nth(1)).toHaveText(`question: ${line.split(',')[1]}`)
  await expect(row.getByRole('cell').nth(2)).toHaveText(line.split(',').at(-1)!.trim())
  expect(await violations(page)).toEqual([])
  await page.screenshot({ path: 'test-results/ub/html-export.png' })
  await page.screenshot({ path: 'test-results/ub/html-export-full.png', fullPage: true })
})
