import { expect, test } from '@playwright/test'

test('a judge panel is set up in the evaluator form: two judges, another added, the verdict rule; saved; back to one judge keeps the first', async ({ page }) => {
  await page.goto('/')
  await page.getByTestId('template-quality-gate').click()
  await expect(page).toHaveURL(/\/workflows\/[^/]+$/)
  const id = page.url().split('/').pop()!
  await page.locator('.vue-flow__node[data-id="judge"]').click()
  const settings = page.getByRole('complementary', { name: 'Step settings' })
  await settings.getByLabel('Judge model').selectOption('local:heuristic')

  await settings.getByRole('radio', { name: 'A panel of judges' }).check()
  // The model chosen is the panel's first judge; the second is to be named.
  await expect(settings.getByLabel('Judge 1', { exact: true })).toHaveValue('local:heuristic')
  await settings.getByLabel('Judge 2', { exact: true }).selectOption('__other__')
  await settings.getByLabel('Judge 2 name').fill('openai:llama3.1')
  await settings.getByLabel('Judge 2 name').press('Tab')
  await expect(settings.getByRole('button', { name: 'Remove judge 1' })).toBeDisabled()
  await settings.getByRole('button', { name: 'Add judge' }).click()
  // No model left to offer: the new judge is to be named, and said so.
  await expect(settings.getByText('Judge 3 is required.').first()).toBeVisible()
  await settings.getByLabel('Judge 3', { exact: true }).selectOption('__other__')
  await settings.getByLabel('Judge 3 name').fill('openai:qwen2.5')
  await settings.getByLabel('Judge 3 name').press('Tab')
  await settings.getByLabel('Panel verdict').selectOption('mean')
  await expect(page.getByText('0 problems')).toBeVisible()
  await page.screenshot({ path: 'test-results/e2e/judge-panel-form.png' })

  await page.keyboard.press('Control+s')
  await expect(page.getByRole('status').first()).toContainText('Saved version 2')
  const saved = async () => {
    const { definition } = await (await page.request.get(`/api/workflows/${id}`)).json() as { definition: { nodes: { id: string, config: Record<string, unknown> }[] } }
    return definition.nodes.find(n => n.id === 'judge')!.config
  }
  const config = await saved()
  expect(config).toMatchObject({ judges: ['local:heuristic', 'openai:llama3.1', 'openai:qwen2.5'], panel: { aggregate: 'mean' } })
  expect(config.model).toBeUndefined()

  // A removed judge goes; back to one judge, the first judge is the model and the panel's settings go.
  await settings.getByRole('button', { name: 'Remove judge 2' }).click()
  await expect(settings.getByLabel('Judge 2', { exact: true })).toHaveValue('__other__')
  await settings.getByRole('radio', { name: 'One judge' }).check()
  await expect(settings.getByLabel('Judge model')).toHaveValue('local:heuristic')
  await page.keyboard.press('Control+s')
  await expect(page.getByRole('status').first()).toContainText('Saved version 3')
  const single = await saved()
  expect(single).toMatchObject({ model: 'local:heuristic' })
  expect(single.judges).toBeUndefined()
  expect(single.panel).toBeUndefined()
})

test('a run of a judge panel shows each judge\'s verdict and score, the pairs agreeing and how the judges answered, in the run inspector', async ({ page }) => {
  test.setTimeout(60_000)
  // This app's OpenAI endpoint is the fake LLM server: panel-yes scores 0.9, panel-split 0.9 when the text names judgeflow, panel-no 0.2.
  const app = process.env.E2E_LLM_APP!
  const created = await page.request.post(`${app}/api/workflows`, { data: {
    name: `Panel ${Date.now()}`,
    nodes: [
      { id: 'in', type: 'input', config: { fields: { answer: { type: 'string' } } }, position: { x: 0, y: 0 } },
      { id: 'judge', type: 'evaluator', position: { x: 280, y: 0 }, config: {
        evaluation_type: 'criteria', judges: ['openai:panel-yes', 'openai:panel-split', 'openai:panel-no'], pass_threshold: 0.7,
        criteria: [{ name: 'names the product', description: 'The text names the product', weight: 1 }], content: '{{input.answer}}',
      } },
    ],
    edges: [{ from: 'in', to: 'judge' }],
  } })
  expect(created.status()).toBe(201)
  const { id } = await created.json()
  const started = await page.request.post(`${app}/api/workflows/${id}/runs`, { data: { input: { answer: 'nothing to see' } } })
  const run = (await started.json()).id
  await expect.poll(async () => (await (await page.request.get(`${app}/api/runs/${run}`)).json()).status, { timeout: 30_000 }).toBe('succeeded')

  await page.goto(`${app}/runs/${run}`)
  // Opened by keyboard: the attempt's summary takes the focus and Enter.
  await page.getByTestId('attempt-judge-1').locator('summary').focus()
  await page.keyboard.press('Enter')
  const card = page.getByTestId('evaluator-result')
  await expect(card).toBeVisible()
  await expect(card.getByTestId('panel-result').locator('caption')).toHaveText('Panel · majority · pairs agreeing 33 %')
  await expect(card.getByTestId('panel-result').locator('tr')).toHaveText([
    '✓ passopenai:panel-yes0.900', '✗ failopenai:panel-split0.200', '✗ failopenai:panel-no0.200',
  ])
  await expect(card).toContainText('failed')
  await expect(card.getByTestId('judge-line')).toHaveText('answered in JSON Schema')
  await card.scrollIntoViewIfNeeded()
  await page.screenshot({ path: 'test-results/e2e/judge-panel-result.png' })
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.screenshot({ path: 'test-results/e2e/judge-panel-result-dark.png' })
})

test('an evaluator step says whether its judge is calibrated against people: not yet, then calibrated by a labelled run, stale once its criteria change; the run inspector says it too', async ({ page }) => {
  test.setTimeout(90_000)
  // This app's OpenAI endpoint is the fake LLM server: panel-split scores 0.9 the texts that name judgeflow, 0.2 the others.
  const app = process.env.E2E_LLM_APP!
  const judge = { evaluation_type: 'criteria', model: 'openai:panel-split', pass_threshold: 0.5, content: '{{input.answer}}',
    criteria: [{ name: 'names the product', description: 'The text names the product', weight: 1 }] }
  const created = await page.request.post(`${app}/api/workflows`, { data: {
    name: `Calibrated ${Date.now()}`,
    nodes: [{ id: 'in', type: 'input', config: { fields: { answer: { type: 'string' } } }, position: { x: 0, y: 0 } }, { id: 'judge', type: 'evaluator', position: { x: 300, y: 0 }, config: judge }],
    edges: [{ from: 'in', to: 'judge' }],
  } })
  const workflow = await created.json()
  await page.goto(`${app}/workflows/${workflow.id}`)
  await page.getByTestId('node-judge').click()
  const settings = page.getByRole('complementary', { name: 'Step settings' })
  await expect(settings.getByTestId('calibration')).toHaveText('Not calibrated: no dataset run with labels has been judged by this judge. Run it over a dataset with labels to calibrate it.')

  // People's labels, and a run of the workflow over them: the judge agrees on both.
  const name = `labelled ${Date.now()}`
  const dataset = await (await page.request.post(`${app}/api/datasets`, { data: { name, format: 'csv', text: 'id,answer,expected_verdict\na,judgeflow runs it,pass\nb,nothing here,fail' } })).json()
  const started = await (await page.request.post(`${app}/api/dataset-runs`, { data: { dataset: dataset.id, target: { workflow_id: workflow.id } } })).json()
  await expect.poll(async () => (await (await page.request.get(`${app}/api/dataset-runs/${started.id}`)).json()).status, { timeout: 60_000 }).toBe('finished')

  await page.reload()
  await page.getByTestId('node-judge').click()
  // Two labelled cases: the κ is said with why it cannot tell (engine/datasets/kappa-interval.ts).
  await expect(settings.getByTestId('calibration')).toHaveText(new RegExp(`^Calibrated against people: κ 1\\.00 \\[-?\\d\\.\\d\\d, \\d\\.\\d\\d\\] on ${name} v1, too few cases to tell: 2 labelled, 30 needed; the interval is \\d\\.\\d\\d wide$`))
  await page.screenshot({ path: 'test-results/e2e/calibration-calibrated-1280x720.png' })
  // A changed criterion is another judge: its calibration no longer holds.
  const description = settings.getByLabel('Criterion 1 description')
  await description.fill('The text names the product by its name')
  await description.press('Tab')
  await expect(settings.getByTestId('calibration')).toHaveText(`Calibration stale: the criteria changed since the last calibration on ${name} v1. Run it over a dataset with labels to calibrate it.`)
  await page.screenshot({ path: 'test-results/e2e/calibration-stale-1280x720.png' })

  // A case's run, in the run inspector: the judge that gave its verdict is the calibrated one.
  const report = (await (await page.request.get(`${app}/api/dataset-runs/${started.id}`)).json()).report
  await page.goto(`${app}/runs/${report.results[0].run_id}`)
  await page.getByTestId('attempt-judge-1').locator('summary').click()
  await expect(page.getByTestId('evaluator-result').getByTestId('calibration')).toContainText('Calibrated against people: κ 1.00')
})

test('when the calibration status cannot be had, the evaluator step says so instead of passing for "not calibrated", and checks again on request', async ({ page }) => {
  await page.goto('/')
  await page.getByTestId('template-quality-gate').click()
  await expect(page).toHaveURL(/\/workflows\/[^/]+$/)
  await page.route('**/api/calibration', route => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ statusCode: 500, message: 'the database is not reachable' }) }))
  await page.locator('.vue-flow__node[data-id="judge"]').click()
  const settings = page.getByRole('complementary', { name: 'Step settings' })
  const status = settings.getByTestId('calibration')
  await expect(status).toHaveText('Calibration unknown: the server answered 500 (the database is not reachable). Check again')
  await status.scrollIntoViewIfNeeded()
  await page.screenshot({ path: 'test-results/e2e/calibration-unknown.png' })
  // The server answers again: asked from the keyboard, the status is the server's (other tests on
  // this server may have calibrated the template's judge).
  await page.unroute('**/api/calibration')
  await status.getByRole('button', { name: 'Check again' }).focus()
  await page.keyboard.press('Enter')
  await expect(status).toHaveText(/^(Not calibrated|Calibrated against people|Calibration stale): /)
  await expect(status.getByRole('button', { name: 'Check again' })).toHaveCount(0)
})

test('while the evaluator config is invalid for a moment, the calibration keeps its last status and says it will update once the config is valid, with no failed request or console error', async ({ page }) => {
  const consoleErrors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text())
  })
  const refused: string[] = []
  page.on('response', (response) => {
    if (response.url().includes('/api/calibration') && response.status() >= 400) refused.push(`${response.status()} ${response.url()}`)
  })
  await page.goto('/')
  await page.getByTestId('template-quality-gate').click()
  await expect(page).toHaveURL(/\/workflows\/[^/]+$/)
  await page.locator('.vue-flow__node[data-id="judge"]').click()
  const settings = page.getByRole('complementary', { name: 'Step settings' })
  const status = settings.getByTestId('calibration')
  // Other tests on this server may have calibrated the template's judge: whichever status the server gives.
  await expect(status).toHaveText(/^(Not calibrated|Calibrated against people|Calibration stale): /)
  const before = (await status.textContent())!.trim()

  // Weights of 0.5, 0.3 and 0.3 do not sum to 1: no judge to ask about until they do.
  await settings.getByLabel('Criterion 1 weight', { exact: true }).fill('0.5')
  // A calibrated status ends without a full stop of its own.
  const waiting = new RegExp(`^${before.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.? It will update once the config is valid\\.$`)
  await expect(status).toHaveText(waiting)
  await status.scrollIntoViewIfNeeded()
  await page.screenshot({ path: 'test-results/ub/calibration-invalid-config.png' })
  await page.waitForTimeout(800)
  await expect(status).toHaveText(waiting)

  await settings.getByLabel('Criterion 1 weight', { exact: true }).fill('0.4')
  await expect(status).toHaveText(before)
  expect(refused).toEqual([])
  expect(consoleErrors).toEqual([])
})
