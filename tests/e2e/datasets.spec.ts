import { readFileSync } from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { stringify } from 'yaml'

const EXAMPLES = new URL('../../examples/', import.meta.url)
const qualityGate = JSON.parse(readFileSync(new URL('quality-gate.json', EXAMPLES), 'utf8'))
const SUPPORT_CSV = new URL('datasets/support-questions.csv', EXAMPLES).pathname

/** Serious and critical WCAG A/AA findings, with where they are. */
async function violations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze()
  return violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')}`)
}

/** Both window sizes the app is looked at in. */
async function screenshots(page: Page, name: string) {
  for (const size of [{ width: 1440, height: 900 }, { width: 1280, height: 720 }]) {
    await page.setViewportSize(size)
    await page.screenshot({ path: `test-results/e2e/${name}-${size.width}x${size.height}.png`, fullPage: true })
  }
}

async function createWorkflow(page: Page, name: string): Promise<string> {
  const created = await page.request.post('/api/workflows', { data: { ...qualityGate, name } })
  expect(created.status()).toBe(201)
  return (await created.json()).id
}

/** Starts a run of the workflow over the dataset from the dataset page and waits for its end in the dialog. */
async function runFromDatasetPage(page: Page, workflowName: string) {
  await page.getByTestId('run-on-dataset').click()
  const dialog = page.getByRole('dialog', { name: 'Run on a dataset' })
  await dialog.getByTestId('run-workflow').selectOption({ label: workflowName })
  await dialog.getByTestId('start-dataset-run').click()
  await expect(dialog.getByRole('progressbar', { name: 'Dataset run progress' })).toBeVisible()
  await expect(dialog.getByTestId('dataset-run-status')).toHaveText(/^finished: 12 of 12 case runs done/, { timeout: 60_000 })
  await dialog.getByTestId('open-dataset-report').click()
  await expect(page.getByTestId('pass-rate')).toBeVisible()
}

test('imports a labelled CSV, edits a case, runs the quality gate over it, reads the report, applies the recommended threshold and compares with a baseline', async ({ page }) => {
  test.setTimeout(180_000)
  await page.setViewportSize({ width: 1440, height: 900 })
  const workflowName = `Quality gate ${Date.now()}`
  const workflowId = await createWorkflow(page, workflowName)
  const datasetName = `support questions ${Date.now()}`

  await page.goto('/')
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Datasets' }).click()
  await expect(page.getByRole('heading', { name: 'Datasets', level: 1 })).toBeVisible()
  expect(await violations(page)).toEqual([])

  // A bad row is refused with its line and field, and nothing is imported.
  await page.getByTestId('dataset-name').fill(`${datasetName} (bad)`)
  await page.getByTestId('dataset-text').fill('id,question,expected_score\nq1,Why?,0.5\nq2,How?,2\n')
  await page.getByRole('button', { name: 'Import', exact: true }).click()
  await expect(page.getByRole('alert')).toHaveText(/line 3, expected_score: "2" is not a score between 0 and 1/)

  await page.getByTestId('dataset-text').fill('')
  await page.getByTestId('dataset-file').setInputFiles(SUPPORT_CSV)
  await page.getByTestId('dataset-name').fill(datasetName)
  await page.getByRole('button', { name: 'Import', exact: true }).click()
  await expect(page.getByRole('heading', { name: datasetName, level: 1 })).toBeVisible()
  await expect(page.getByText('version 1 of 1 · 12 cases')).toBeVisible()
  await expect(page.getByTestId('case-login-1')).toBeVisible()

  // Edit a case: its tags and its question; saving makes version 2.
  await page.getByLabel('tags of reset-1').fill('account, password')
  await page.getByLabel('tags of reset-1').press('Tab')
  await page.getByLabel('question of reset-1').fill('How do I reset my password, please?')
  await page.getByLabel('question of reset-1').press('Tab')
  await expect(page.getByRole('status').filter({ hasText: 'Unsaved changes' })).toBeVisible()
  await page.getByTestId('save-cases').click()
  await expect(page.getByText('Saved as version 2.')).toBeVisible()
  await expect(page.getByText('version 2 of 2 · 12 cases')).toBeVisible()
  await expect(page.getByLabel('question of reset-1')).toHaveValue('How do I reset my password, please?')
  await expect(page.getByRole('button', { name: 'version 1' })).toBeVisible()
  const exported = await page.request.get(`${page.url().replace(/\/datasets\//, '/api/datasets/')}/export?format=csv`)
  expect((await exported.text()).split('\n')[1]).toBe('reset-1,"How do I reset my password, please?",account;password,pass,,')
  expect(await violations(page)).toEqual([])
  await screenshots(page, 'dataset')
  const datasetUrl = page.url()

  // The first run, followed live over SSE, then its report.
  await page.setViewportSize({ width: 1440, height: 900 })
  await runFromDatasetPage(page, workflowName)
  const firstReport = page.url()
  await expect(page.getByTestId('pass-rate')).toContainText('95 % CI')
  await expect(page.getByTestId('confusion')).toBeVisible()
  await expect(page.getByTestId('kappa')).toContainText('95 % CI')
  await expect(page.getByTestId('chart-histogram')).toBeVisible()
  await expect(page.getByRole('img', { name: /^κ by pass threshold: .*; recommended [\d.]+$/ })).toBeVisible()
  await expect(page.getByRole('img', { name: /^Score histogram: / })).toBeVisible()
  const report = await (await page.request.get(`/api/dataset-runs/${firstReport.split('/').at(-1)}`)).json()
  await expect(page.getByTestId('case-row')).toHaveCount(12)
  // Filtering keeps the failed ones: as many rows as the report counts failed cases (one run each).
  await page.getByTestId('filter-failed').click()
  await expect(page.getByTestId('case-row')).toHaveCount(report.report.failed)
  await page.getByTestId('filter-all').click()
  expect(await violations(page)).toEqual([])
  await screenshots(page, 'dataset-report')

  // A row opens its run in the inspector.
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.getByRole('link', { name: 'Open the run of billing-1' }).click()
  await expect(page.getByRole('region', { name: 'Run inspector' })).toBeVisible()
  await expect(page.getByTestId('inspect-judge')).toBeVisible()
  expect(await violations(page)).toEqual([])
  await page.goBack()

  // The recommended threshold, applied to the evaluator step as a new version, then undone, then applied again.
  const recommended = Number(await page.getByTestId('recommended-threshold').textContent())
  expect(recommended).toBe(report.report.agreement.recommended_threshold)
  await page.getByTestId('apply-threshold').click()
  await expect(page.getByTestId('threshold-applied')).toContainText(`Step judge's pass threshold is now ${recommended.toFixed(2)} (was 0.6), saved as version 2`)
  let saved = await (await page.request.get(`/api/workflows/${workflowId}`)).json()
  expect(saved).toMatchObject({ version: 2 })
  expect(saved.definition.nodes.find((n: { id: string }) => n.id === 'judge').config.pass_threshold).toBe(recommended)
  await page.getByRole('button', { name: 'Undo' }).click()
  await expect(page.getByText('Undone: step judge\'s pass threshold is 0.6 again, saved as version 3.')).toBeVisible()
  saved = await (await page.request.get(`/api/workflows/${workflowId}`)).json()
  expect(saved.definition.nodes.find((n: { id: string }) => n.id === 'judge').config.pass_threshold).toBe(0.6)
  await page.getByTestId('apply-threshold').click()
  await expect(page.getByTestId('threshold-applied')).toContainText('saved as version 4')

  // A second run with the new threshold, compared with the first.
  await page.goto(datasetUrl)
  await runFromDatasetPage(page, workflowName)
  const baselineSelect = page.getByTestId('baseline-select')
  await baselineSelect.selectOption({ index: 1 })
  await expect(page.getByTestId('comparison')).toBeVisible()
  await expect(page.getByTestId('comparison-summary')).toContainText(/McNemar’s exact test p = [\d.]+/)
  const compared = await (await page.request.get(`/api/dataset-runs/${page.url().split('/').at(-1)}/compare?baseline=${firstReport.split('/').at(-1)}`)).json()
  await expect(page.getByTestId('filter-regressed')).toHaveText(`regressed (${compared.regressions.length})`)
  await page.getByTestId('filter-regressed').click()
  await expect(page.getByTestId('case-row')).toHaveCount(compared.regressions.length)
  await page.getByTestId('filter-all').click()
  await expect(page.getByRole('columnheader', { name: 'Δ score' })).toBeVisible()
  expect(await violations(page)).toEqual([])
  await screenshots(page, 'dataset-compare')
})

test('"Run on dataset" from the editor’s toolbar and from an evaluator step’s form', async ({ page }) => {
  test.setTimeout(90_000)
  const workflowName = `Quality gate ${Date.now()}`
  const workflowId = await createWorkflow(page, workflowName)
  const questions = await page.request.post('/api/datasets', { data: { name: `questions ${Date.now()}`, format: 'csv', text: readFileSync(SUPPORT_CSV, 'utf8') } })
  expect(questions.status()).toBe(201)
  // For the evaluator alone: the answer to judge and the question it answers, in the fields it reads.
  const answers = ['id,content,context,expected_verdict',
    'good,"To reset your password: open Settings, choose Forgot password, and follow the link in the email.",How do I reset my password?,pass',
    'weak,I am not sure.,How do I reset my password?,fail'].join('\n')
  const answered = await page.request.post('/api/datasets', { data: { name: `answers ${Date.now()}`, format: 'csv', text: answers } })
  expect(answered.status()).toBe(201)

  await page.goto(`/workflows/${workflowId}`)
  await expect(page.getByTestId('node-judge')).toBeVisible()
  // With no step selected, the toolbar's is the one button of that name.
  await page.getByRole('button', { name: 'Run on dataset' }).click()
  let dialog = page.getByRole('dialog', { name: 'Run on a dataset' })
  await expect(dialog.getByTestId('run-workflow')).toHaveValue(workflowId)
  await dialog.getByTestId('run-dataset').selectOption((await questions.json()).id)
  await dialog.getByTestId('start-dataset-run').click()
  await expect(dialog.getByTestId('dataset-run-status')).toHaveText(/^finished: 12 of 12/, { timeout: 60_000 })
  await dialog.getByRole('button', { name: 'Close' }).click()

  // From the evaluator's form: the evaluator judged alone, its references to other steps left for the cases' fields.
  await page.getByTestId('node-judge').click()
  await page.getByRole('complementary', { name: 'Step settings' }).getByTestId('run-on-dataset').click()
  dialog = page.getByRole('dialog', { name: 'Run on a dataset' })
  await dialog.getByRole('radio', { name: 'an evaluator config alone' }).check()
  const config = JSON.parse(await dialog.getByTestId('run-evaluator-config').inputValue())
  expect(config).toMatchObject({ evaluation_type: 'criteria', model: 'local:heuristic' })
  expect(config.content).toBeUndefined()
  await dialog.getByTestId('run-dataset').selectOption((await answered.json()).id)
  // The config may be written as YAML too: a broken one is refused naming the field, and nothing starts.
  const configField = dialog.getByTestId('run-evaluator-config')
  await configField.fill('evaluation_type: [criteria\nmodel: local:heuristic')
  await dialog.getByTestId('start-dataset-run').click()
  await expect(dialog.getByRole('alert')).toHaveText(/^evaluator: .*YAML/i)
  await expect(dialog.getByTestId('dataset-run-status')).toHaveCount(0)
  await configField.fill(stringify(config))
  await dialog.getByTestId('start-dataset-run').click()
  await expect(dialog.getByTestId('dataset-run-status')).toHaveText(/^finished: 2 of 2/, { timeout: 60_000 })
  await dialog.getByTestId('open-dataset-report').click()
  await expect(page.getByText('an evaluator alone')).toBeVisible()
  await expect(page.getByTestId('case-row')).toHaveCount(2)
  await expect(page.getByTestId('confusion')).toBeVisible()
})

test('a dataset run going on shows its progress and can be cancelled', async ({ page }) => {
  test.setTimeout(60_000)
  // The app whose LLM is the fake server: a prompt saying "slowly" is answered after a minute.
  const app = process.env.E2E_LLM_APP!
  const workflow = await page.request.post(`${app}/api/workflows`, { data: {
    name: `Slow answers ${Date.now()}`,
    nodes: [
      { id: 'in', type: 'input', config: { fields: { question: { type: 'string', required: true } } } },
      { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Answer {{input.question}} slowly' } },
      { id: 'judge', type: 'evaluator', config: { evaluation_type: 'scoring', model: 'local:heuristic', pass_threshold: 0.3, context: '{{input.question}}' } },
    ],
    edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }],
  } })
  expect(workflow.status()).toBe(201)
  const dataset = await page.request.post(`${app}/api/datasets`, { data: { name: `slow ${Date.now()}`, format: 'csv', text: 'id,question\na,Why?\nb,How?\nc,When?\n' } })
  expect(dataset.status()).toBe(201)

  await page.goto(`${app}/datasets/${(await dataset.json()).id}`)
  await page.getByTestId('run-on-dataset').click()
  const dialog = page.getByRole('dialog', { name: 'Run on a dataset' })
  await dialog.getByTestId('run-workflow').selectOption((await workflow.json()).id)
  await dialog.getByTestId('start-dataset-run').click()
  await expect(dialog.getByTestId('dataset-run-status')).toHaveText('0 of 3 case runs done; cases: 0 passed, 0 failed, 0 errored')
  await dialog.getByTestId('open-dataset-report').click()
  // The report page follows the run while it goes on, and cancels it.
  await expect(page.getByRole('progressbar', { name: 'Dataset run progress' })).toBeVisible()
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByTestId('pass-rate')).toBeVisible({ timeout: 20_000 })
  await expect(page.getByText(/· cancelled ·/)).toBeVisible()
  // No case had finished: the report counts the cases, none of them judged.
  await expect(page.getByText('0 passed · 0 failed · 0 errored')).toBeVisible()
  await expect(page.getByTestId('case-row')).toHaveCount(0)
  await expect(page.getByText('No case runs to show here.')).toBeVisible()
})

test('in the dark theme (the system setting) the datasets list, a dataset and its report have no contrast findings (axe)', async ({ page }) => {
  test.setTimeout(120_000)
  await page.emulateMedia({ colorScheme: 'dark' })
  const workflowName = `Quality gate dark ${Date.now()}`
  await createWorkflow(page, workflowName)
  await page.goto('/datasets')
  await page.getByTestId('dataset-file').setInputFiles(SUPPORT_CSV)
  await page.getByTestId('dataset-name').fill(`support questions dark ${Date.now()}`)
  await page.getByRole('button', { name: 'Import', exact: true }).click()
  await expect(page.getByTestId('run-on-dataset')).toBeVisible()
  expect(await violations(page)).toEqual([])
  await runFromDatasetPage(page, workflowName)
  // The labelled cases give the agreement panel; the failed cases' rows are tinted; the charts are drawn last.
  await expect(page.getByRole('heading', { name: 'Agreement with people', exact: true })).toBeVisible()
  await expect(page.getByTestId('filter-failed')).toHaveText(/failed \(7\)/)
  await expect(page.locator('figure canvas')).toHaveCount(2)
  await page.waitForLoadState('networkidle')
  expect(await violations(page)).toEqual([])
  await screenshots(page, 'dataset-report-dark')
  await page.goto('/datasets')
  expect(await violations(page)).toEqual([])
})

test('the run dialog says what a run will cost, asks before one estimated over the amount you name, and takes a budget', async ({ page }) => {
  test.setTimeout(90_000)
  // This app's OpenAI endpoint is the fake LLM server; gpt-4o-mini has a known price.
  const app = process.env.E2E_LLM_APP!
  const created = await page.request.post(`${app}/api/workflows`, { data: {
    name: `Priced ${Date.now()}`,
    nodes: [
      { id: 'in', type: 'input', config: { fields: { question: { type: 'string' } } }, position: { x: 0, y: 0 } },
      { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Answer: {{input.question}}' }, position: { x: 260, y: 0 } },
      { id: 'judge', type: 'evaluator', position: { x: 520, y: 0 }, config: {
        evaluation_type: 'scorers', pass_threshold: 0, content: '{{steps.draft.text}}', scorers: [{ type: 'contains', threshold: 0, options: { values: ['echo'] } }],
      } },
    ],
    edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }],
  } })
  const workflow = await created.json()
  const dataset = await (await page.request.post(`${app}/api/datasets`, { data: { name: `priced ${Date.now()}`, format: 'csv', text: 'id,question\nq1,one\nq2,two\nq3,three' } })).json()

  await page.goto(`${app}/workflows/${workflow.id}`)
  await page.getByRole('button', { name: 'Run on dataset' }).click()
  const dialog = page.getByRole('dialog', { name: 'Run on a dataset' })
  await dialog.getByTestId('run-dataset').selectOption(dataset.id)
  // Three LLM calls of about 3 tokens in and 400 out at gpt-4o-mini's price; the scorer is free.
  await expect(dialog.getByTestId('run-estimate')).toHaveText(/^Estimated cost: about \$0\.00072 for 3 case runs, from the prompts' length \(3 calls; a rough figure\)\.$/)
  // Asked about any run over $0.0001, by keyboard.
  await dialog.getByTestId('run-confirm-over').fill('0.0001')
  await dialog.getByTestId('run-budget').focus()
  await page.keyboard.type('0.5')
  await expect(dialog.getByTestId('run-estimate')).toContainText('No case starts that what is left of $0.50 cannot pay for at the estimated cost')
  await dialog.getByTestId('start-dataset-run').click()
  const confirm = dialog.getByRole('alertdialog')
  await expect(confirm).toContainText('This run is estimated at $0.00072, over the $0.00010 you asked to be asked about. Start it?')
  await page.screenshot({ path: 'test-results/e2e/run-dialog-confirm-cost-1280x720.png' })
  await confirm.getByRole('button', { name: 'Not now' }).click()
  await expect(confirm).toHaveCount(0)
  await expect(dialog.getByTestId('dataset-run-status')).toHaveCount(0)
  expect(await (await page.request.get(`${app}/api/datasets/${dataset.id}/runs`)).json()).toEqual([])

  await dialog.getByTestId('start-dataset-run').click()
  // The question has the focus: Enter answers it.
  await expect(confirm.getByRole('button', { name: 'Start anyway' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(dialog.getByTestId('dataset-run-status')).toHaveText(/^finished: 3 of 3/, { timeout: 60_000 })
  const [run] = await (await page.request.get(`${app}/api/datasets/${dataset.id}/runs`)).json()
  expect(run.options).toMatchObject({ max_cost_usd: 0.5 })
  await dialog.getByRole('button', { name: 'Close' }).click()

  // The next estimate is the last run's cost: 3 × (11 tokens in, 7 out) at gpt-4o-mini's price.
  await page.getByRole('button', { name: 'Run on dataset' }).click()
  await dialog.getByTestId('run-dataset').selectOption(dataset.id)
  await expect(dialog.getByTestId('run-estimate')).toHaveText('Estimated cost: $0.000018 for 3 case runs, from the last run of this dataset on this target.')
  expect(await violations(page)).toEqual([])

  // A budget under the estimate ($0.000018): the dialog says so, and asks before it starts only what the
  // budget pays for. One case at a time, estimated at $0.000006 each: after the first ($0.00000585),
  // what is left cannot pay for another, so two are not run.
  // The progress says so, and its bar is full: nothing is left to run. The dialog's stream is held
  // until the run has ended, so the progress is the one read back from the stored run (followed live,
  // it is the same: the unit tests compare the two).
  await page.route('**/api/dataset-runs/*/events', async (route) => {
    const id = new URL(route.request().url()).pathname.split('/').at(-2)
    await expect.poll(async () => (await (await page.request.get(`${app}/api/dataset-runs/${id}`)).json()).status, { timeout: 60_000 }).toBe('finished')
    await route.continue()
  })
  await dialog.getByLabel('Concurrency').fill('1')
  await dialog.getByTestId('run-budget').fill('0.00001')
  await expect(dialog.getByTestId('run-estimate')).toContainText('That is over the budget of $0.000010: only the case runs it pays for would start')
  await dialog.getByTestId('start-dataset-run').click()
  await expect(confirm).toContainText('This run is estimated at $0.000018, over its budget of $0.000010: only the case runs the budget pays for will start')
  await page.screenshot({ path: 'test-results/e2e/run-dialog-over-budget-1280x720.png' })
  await confirm.getByRole('button', { name: 'Start anyway' }).click()
  const status = dialog.getByTestId('dataset-run-status')
  await expect(status).toHaveText(/^finished: 1 of 3 case runs done, 2 not run; cases: /, { timeout: 60_000 })
  const bar = dialog.getByRole('progressbar', { name: 'Dataset run progress' })
  expect(await bar.evaluate(el => [(el as HTMLProgressElement).value, (el as HTMLProgressElement).max])).toEqual([3, 3])
  await page.screenshot({ path: 'test-results/e2e/run-dialog-budget-reached-1280x720.png' })
})
