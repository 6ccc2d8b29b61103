import { readFileSync } from 'node:fs'
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { connect, newWorkflow, setField } from './helpers'

const VIEWPORTS = [{ width: 1440, height: 900 }, { width: 1280, height: 720 }]

/** A screenshot of the page at each of the two window sizes, ending at the first. */
async function shoot(page: Page, name: string) {
  for (const viewport of [...VIEWPORTS].reverse()) {
    await page.setViewportSize(viewport)
    await page.waitForTimeout(150)
    await page.screenshot({ path: `test-results/e2e/${name}-${viewport.width}x${viewport.height}.png` })
  }
}

async function created(request: APIRequestContext, definition: unknown): Promise<string> {
  const response = await request.post('/api/workflows', { data: definition })
  expect(response.status()).toBe(201)
  return (await response.json()).id
}

/** Starts a run through the API and waits for its end. */
async function ranOnce(request: APIRequestContext, id: string, input: unknown) {
  const started = await request.post(`/api/workflows/${id}/runs`, { data: { input } })
  expect(started.status()).toBe(202)
  const run = (await started.json()).id
  await expect.poll(async () => (await (await request.get(`/api/runs/${run}`)).json()).status, { timeout: 15_000 }).toBe('succeeded')
}

const ANSWERED = {
  name: 'Answered',
  nodes: [
    { id: 'in', type: 'input', config: { fields: { question: { type: 'string' } } }, position: { x: 0, y: 80 } },
    { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Answer: {{input.question}}' }, pinned: ['Four, since 2 + 2 = 4.'], position: { x: 280, y: 80 } },
    { id: 'out', type: 'output', config: { value: '{{steps.draft.text}}' }, position: { x: 560, y: 0 } },
  ],
  edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'out' }],
}

test.use({ viewport: VIEWPORTS[0] })

test('fields are labelled for people with help; the model is chosen from a list; a new step\'s problems are counted at once, its fields flagged once touched; problems are sentences beside their fields', async ({ page }) => {
  test.setTimeout(60_000)
  await page.goto('/')
  await newWorkflow(page)
  await expect(page.getByTestId('node-in')).toBeVisible()
  const side = page.getByRole('complementary', { name: 'Step settings' })

  // The input step has nothing to pin.
  await page.getByTestId('node-in').click()
  await expect(side.getByLabel('Pinned outputs')).toHaveCount(0)

  await page.getByTestId('add-llm').click()
  await expect(page.getByTestId('node-llm')).toBeVisible()
  // Fresh: its problems are counted and marked on its card at once; its fields are not flagged before one is left.
  await expect(page.getByTestId('problems-llm')).toContainText('2 problems')
  await expect(page.getByTestId('problem-count')).toHaveText('2 problems')
  await expect(side.locator('.error')).toHaveCount(0)
  for (const label of ['Model', 'Prompt', 'System prompt', 'Temperature', 'Max tokens']) await expect(side.getByLabel(label, { exact: true })).toBeVisible()
  // Its pinned outputs are folded behind a button that counts them.
  await expect(side.getByRole('button', { name: 'Pinned outputs (none)' })).toHaveAttribute('aria-expanded', 'false')
  await expect(side).toContainText('The longest answer the model may give, in tokens.')
  // The model: the servers' models (this one has no provider key) or another typed; never the offline judge.
  const model = side.getByLabel('Model', { exact: true })
  const offered = await model.locator('option').allTextContents()
  expect(offered.map(o => o.trim())).toEqual(['Choose a model', 'Another model (type its name)…'])
  await expect(side).toContainText('This server has no provider key set')
  await shoot(page, 'editor-form-fresh-llm')

  // Leaving a field shows the step's problems, as sentences beside the fields they concern.
  await side.getByLabel('Prompt', { exact: true }).focus()
  await side.getByLabel('Prompt', { exact: true }).press('Tab')
  await expect(page.getByTestId('problems-llm')).toContainText('2 problems')
  await expect(side.locator('.error')).toHaveText(['Model is required.', 'Prompt is required.'])
  await expect(side).not.toContainText('nodes.llm')
  await expect(side).not.toContainText('Invalid input')
  await expect(page.getByTestId('panel-problems-llm')).toHaveCount(0)
  await model.selectOption({ label: 'Another model (type its name)…' })
  await setField(page, 'Model name', 'openai:llama3.1')
  await setField(page, 'Max tokens', '0')
  await expect(side.locator('.error')).toHaveText(['Prompt is required.', 'Max tokens must be more than 0.'])
  await shoot(page, 'editor-form-llm-problems')

  // A condition: its fields in words, the operators too; nothing to pin.
  await page.getByTestId('add-condition').click()
  // It starts with an operator: what is left to fill in is the value.
  await expect(side.getByLabel('Operator', { exact: true })).toHaveValue('truthy')
  await expect(page.getByTestId('problems-condition')).toContainText('1 problem: Value is required.')
  await expect(side.locator('.error')).toHaveCount(0)
  for (const label of ['Value', 'Operator', 'Compare with']) await expect(side.getByLabel(label, { exact: true })).toBeVisible()
  await expect(side.getByLabel('Operator', { exact: true }).locator('option[value="gte"]')).toHaveText('is at least (gte)')
  await expect(side.getByLabel('Pinned outputs')).toHaveCount(0)
  await page.getByTestId('add-output').click()
  await expect(side.getByLabel('Verdict', { exact: true })).toBeVisible()
  await expect(side.getByLabel('Pinned outputs')).toHaveCount(0)
  await shoot(page, 'editor-form-output')

  // Asking for a run flags every step's fields.
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await page.getByRole('dialog', { name: 'Run the workflow' }).getByRole('button', { name: 'Close' }).click()
  await page.getByTestId('node-condition').click()
  await expect(side.locator('.error')).toHaveText(['Value is required.'])
})

test('an evaluator\'s settings removed by a confirmed type switch are not saved, and Undo brings them back', async ({ page, request }) => {
  const id = await created(request, ANSWERED)
  await page.goto(`/workflows/${id}`)
  await page.getByTestId('add-evaluator').click()
  await page.getByLabel('Evaluation type').selectOption('criteria')
  await page.getByRole('button', { name: 'Add criterion' }).click()
  await setField(page, 'Criterion 1 name', 'accuracy')
  await page.getByLabel('Evaluation type').selectOption('metrics')
  const confirm = page.getByRole('dialog', { name: 'Switch to Metric suite?' })
  await expect(confirm).toContainText('criteria')
  await confirm.getByRole('button', { name: 'Remove and switch' }).click()
  await page.keyboard.press('Control+s')
  await expect(page.getByRole('status').first()).toContainText('Saved version 2')
  const { definition } = await (await request.get(`/api/workflows/${id}`)).json()
  expect(definition.nodes.find((n: { id: string }) => n.id === 'evaluator').config.criteria).toBeUndefined()
  await page.getByRole('button', { name: 'Undo' }).click()
  await expect(page.getByLabel('Evaluation type')).toHaveValue('criteria')
  await expect(page.getByLabel('Criterion 1 name', { exact: true })).toHaveValue('accuracy')
})

test('connecting an LLM step to an evaluator fills what it judges; the variable picker lists the upstream outputs with the last run\'s values', async ({ page, request }) => {
  test.setTimeout(60_000)
  const id = await created(request, ANSWERED)
  await ranOnce(request, id, { question: 'What is 2+2?' })
  await page.goto(`/workflows/${id}`)
  await page.getByTestId('add-evaluator').click()
  await connect(page, 'draft', 'evaluator')
  await page.getByTestId('node-evaluator').click()
  const side = page.getByRole('complementary', { name: 'Step settings' })
  await expect(side.getByLabel('Text to judge', { exact: true })).toHaveValue('{{steps.draft.text}}')
  await expect(side.getByLabel('Context', { exact: true })).toHaveValue('{{input.question}}')
  // The person can change it.
  await setField(page, 'Context', 'Arithmetic for children')
  await expect(side.getByLabel('Context', { exact: true })).toHaveValue('Arithmetic for children')

  // The picker: a click inserts where the caret is.
  const reference = side.getByLabel('Reference answer', { exact: true })
  await reference.fill('Expected: ')
  await reference.press('End')
  await side.getByRole('button', { name: 'Insert a variable into Reference answer' }).click()
  const variables = side.getByRole('listbox', { name: 'Variables for Reference answer' })
  await expect(variables.getByRole('option', { name: /\{\{input\.question\}\}/ })).toContainText('last run: What is 2+2?')
  const text = variables.getByRole('option', { name: /^\{\{steps\.draft\.text\}\}/ })
  await expect(text).toContainText('last run: Four, since 2 + 2 = 4.')
  await shoot(page, 'editor-variable-picker')
  await text.click()
  await expect(variables).toHaveCount(0)
  await expect(reference).toHaveValue('Expected: {{steps.draft.text}}')

  // From the keyboard: Enter opens it, the arrows choose, Enter inserts.
  const button = side.getByRole('button', { name: 'Insert a variable into Context' })
  await button.focus()
  await page.keyboard.press('Enter')
  const contextVariables = side.getByRole('listbox', { name: 'Variables for Context' })
  await expect(contextVariables).toBeFocused()
  await expect(contextVariables.getByRole('option').first()).toHaveAttribute('aria-selected', 'true')
  await expect(contextVariables.getByRole('option').first()).toContainText('{{input.question}}')
  await page.keyboard.press('Enter')
  await expect(side.getByLabel('Context', { exact: true })).toHaveValue('Arithmetic for children{{input.question}}')
  // The `{{` completion is still there.
  await reference.fill('')
  await reference.pressSequentially('{{inp')
  await expect(side.getByRole('listbox', { name: 'References for Reference answer' })).toBeVisible()
  await reference.press('Enter')
  await expect(reference).toHaveValue('{{input.question}}')
})

test('the retry\'s step to re-run is chosen from the steps before it or by dragging to it; a refused connection says why beside it', async ({ page, request }) => {
  test.setTimeout(60_000)
  const id = await created(request, {
    name: 'Retried',
    nodes: [
      ...ANSWERED.nodes.slice(0, 2),
      { id: 'judge', type: 'evaluator', config: { evaluation_type: 'scoring', model: 'local:heuristic', content: '{{steps.draft.text}}' }, position: { x: 560, y: 80 } },
      { id: 'again', type: 'retry', config: { max_attempts: 2 }, position: { x: 840, y: 80 } },
    ],
    edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }, { from: 'judge', to: 'again' }],
  })
  await page.goto(`/workflows/${id}`)
  await page.getByTestId('node-again').click()
  const side = page.getByRole('complementary', { name: 'Step settings' })
  const target = side.getByLabel('Step to re-run', { exact: true })
  expect((await target.locator('option').allTextContents()).map(o => o.trim())).toEqual(['Choose a step before this one', 'in (input)', 'draft (llm)', 'judge (evaluator)'])
  await target.selectOption('draft')
  await expect(page.getByRole('img', { name: 'Retry loop from again back to draft' })).toBeAttached()
  await expect(page.getByTestId('node-again')).toContainText('draft')

  // Dragged from the retry to a step before it: that step is the one re-run, drawn as the loop.
  await connect(page, 'again', 'judge', 'exhausted')
  await expect(page.getByRole('img', { name: 'Retry loop from again back to judge' })).toBeAttached()
  await expect(target).toHaveValue('judge')
  await expect(page.locator('.vue-flow__edge:not(.loop)')).toHaveCount(3)

  // A connection that would make a cycle: why, beside where it was drawn, not in the toolbar.
  await connect(page, 'judge', 'draft')
  const refusal = page.getByTestId('connection-refused')
  await expect(refusal).toContainText('judge → draft would make a cycle')
  const box = (await refusal.boundingBox())!
  const from = (await page.getByTestId('node-judge').boundingBox())!
  const to = (await page.getByTestId('node-draft').boundingBox())!
  const middle = box.x + box.width / 2
  expect(middle).toBeGreaterThan(Math.min(from.x, to.x))
  expect(middle).toBeLessThan(Math.max(from.x + from.width, to.x + to.width))
  // Said there only: not in the toolbar's status.
  await expect(page.getByText(/would make a cycle/)).toHaveCount(1)
  await shoot(page, 'editor-connection-refused')
  await refusal.getByRole('button', { name: 'Close this message' }).click()
  await expect(refusal).toHaveCount(0)
})

test('a judgment shows the output that was judged and, beside each mark, the criterion it was given for', async ({ page, request }) => {
  test.setTimeout(90_000)
  await created(request, JSON.parse(readFileSync('examples/reviewer.json', 'utf8')))
  await page.goto('/experiments')
  await page.getByLabel('Experiment definition').fill(readFileSync('examples/experiment.yaml', 'utf8'))
  await page.getByRole('button', { name: 'Create experiment' }).click()
  await page.getByRole('button', { name: 'Run a round' }).click()
  await expect(page.getByTestId('recommendation')).toBeVisible({ timeout: 45_000 })
  const judgment = page.getByTestId('judgment-careful-contract-1')
  await judgment.locator('summary').click()
  await expect(judgment.getByTestId('judged-output-careful-contract-1')).toContainText('Risks: clause 4 makes the supplier\'s liability unlimited')
  const row = judgment.getByRole('row', { name: /^A1/ })
  await expect(row.getByRole('cell').first()).toHaveText('unlimited liability in clause 4')
  await expect(row.getByLabel('Mark of A1 in careful contract run 1')).toBeVisible()
  await expect(judgment.getByRole('columnheader', { name: 'Criterion (what counts as detected)' })).toBeVisible()
  await judgment.scrollIntoViewIfNeeded()
  await shoot(page, 'experiment-judgment-review')
})

test('an unset choice reads as one: a required one asks to choose, an optional one says it is not set', async ({ page }) => {
  await page.goto('/')
  await newWorkflow(page)
  const side = page.getByRole('complementary', { name: 'Step settings' })
  await page.getByTestId('add-condition').click()
  const operator = side.getByLabel('Operator', { exact: true })
  await expect(operator).toBeVisible()
  await expect(operator.locator('option').first()).toHaveText('Choose…')
  await expect(operator.locator('option').first()).toBeDisabled()
  await page.getByTestId('add-output').click()
  const verdict = side.getByLabel('Verdict', { exact: true })
  await expect(verdict.locator('option').first()).toHaveText('not set')
  await expect(verdict).toHaveValue('')
  await verdict.selectOption('fail')
  await verdict.selectOption('')
  await expect(verdict).toHaveValue('')
  await page.screenshot({ path: 'test-results/e2e/editor-unset-choice.png' })
})
