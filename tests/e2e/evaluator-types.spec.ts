import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { connect, newWorkflow, setField } from './helpers'

async function newEvaluator(page: Page) {
  await page.goto('/')
  await newWorkflow(page)
  await page.getByTestId('add-llm').click()
  await page.getByTestId('add-evaluator').click()
  return page.url().split('/').pop()!
}
async function savedConfig(request: APIRequestContext, id: string) {
  const { definition } = await (await request.get(`/api/workflows/${id}`)).json()
  return definition.nodes.find((n: { id: string }) => n.id === 'evaluator').config as Record<string, unknown>
}

test('switching the evaluation type removes what the new type does not use once confirmed; what is saved holds the chosen type\'s settings only', async ({ page, request }) => {
  test.setTimeout(60_000)
  const id = await newEvaluator(page)
  await connect(page, 'llm', 'evaluator')
  await page.getByTestId('node-evaluator').click()
  const type = page.getByLabel('Evaluation type')
  const confirm = page.getByRole('dialog', { name: /^Switch to/ })

  await type.selectOption('criteria')
  await page.getByRole('button', { name: 'Add criterion' }).click()
  await setField(page, 'Criterion 1 name', 'accuracy')
  await page.getByLabel('Criterion 1 weight').fill('1')
  await type.selectOption('metrics')
  await expect(confirm).toContainText('criteria')
  await confirm.getByRole('button', { name: 'Remove and switch' }).click()
  await page.getByTestId('metric-suite').getByRole('button', { name: 'Use the default three' }).click()
  await type.selectOption('scorers')
  await expect(confirm).toContainText('metrics')
  await confirm.getByRole('button', { name: 'Remove and switch' }).click()
  await page.getByTestId('scorer-list').getByLabel('Scorer preset').selectOption('strict')
  await type.selectOption('criteria')
  await expect(confirm).toContainText('scorer preset')
  await confirm.getByRole('button', { name: 'Remove and switch' }).click()
  await page.getByRole('button', { name: 'Add criterion' }).click()
  await setField(page, 'Criterion 1 name', 'accuracy')
  await page.getByLabel('Criterion 1 weight').fill('1')
  await page.screenshot({ path: 'test-results/e2e/evaluator-types-switched-back.png' })

  await page.keyboard.press('Control+s')
  await expect(page.getByRole('status').first()).toContainText('Saved version')
  const saved = await savedConfig(request, id)
  expect(saved).toMatchObject({ evaluation_type: 'criteria', criteria: [{ name: 'accuracy' }] })
  expect(Object.keys(saved)).not.toContain('metrics')
  expect(Object.keys(saved)).not.toContain('preset')
  // Nothing of another type is left on the step for a run to refuse.
  await expect(page.getByTestId('problems-evaluator')).toHaveCount(0)

  // Criteria → rubric keeps the criteria; rubric → metrics, cancelled, keeps the grades.
  await type.selectOption('rubric')
  await expect(confirm).toHaveCount(0)
  await page.getByRole('button', { name: 'Start from A/B/C/D/F' }).click()
  await expect(page.getByLabel('Grade 5', { exact: true })).toHaveValue('F')
  await type.selectOption('metrics')
  await expect(confirm).toContainText('rubric grades')
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(type).toHaveValue('rubric')
  await expect(page.getByLabel('Grade 5', { exact: true })).toHaveValue('F')
  await expect(page.getByLabel('Criterion 1 name', { exact: true })).toHaveValue('accuracy')
  await page.screenshot({ path: 'test-results/e2e/evaluator-types-rubric-back.png' })
})

test('the editor flags on the step what a run would refuse: nothing to judge, a criteria evaluator without criteria', async ({ page }) => {
  await newEvaluator(page)
  await page.getByTestId('node-evaluator').click()
  // A new step is flagged once a field of its form was left.
  await page.getByLabel('Text to judge', { exact: true }).focus()
  await page.getByLabel('Text to judge', { exact: true }).press('Tab')
  // No step leads in and no content is set: the run would fail at this step.
  const errors = page.getByRole('complementary', { name: 'Step settings' }).locator('.error')
  await expect(page.getByTestId('problems-evaluator')).toContainText('Text to judge')
  await expect(errors).toContainText(['Text to judge is not set: set it to the text to judge'])
  await expect(page.getByTestId('problems-evaluator')).toContainText('1 problem')
  await connect(page, 'llm', 'evaluator')
  await expect(page.getByTestId('problems-evaluator')).toHaveCount(0)
  await page.getByLabel('Evaluation type').selectOption('criteria')
  await expect(errors).toContainText(['Criteria needs at least one criterion for evaluation_type "criteria"'])
  await expect(page.getByTestId('problems-evaluator')).toContainText('1 problem')
  await page.screenshot({ path: 'test-results/e2e/evaluator-run-problems.png' })
  await page.getByRole('button', { name: 'Add criterion' }).click()
  await setField(page, 'Criterion 1 name', 'accuracy')
  // A lone criterion weighs 1: valid as it is added.
  await expect(page.getByTestId('weight-sum')).toHaveText('1.00')
  await expect(page.getByTestId('problems-evaluator')).toHaveCount(0)
  // Weights that do not sum to 1: the run would refuse them.
  await page.getByLabel('Criterion 1 weight').fill('0.5')
  await expect(errors).toContainText([/weights must sum to 1\.0/])
  await page.getByLabel('Criterion 1 weight').fill('1')
  await expect(page.getByTestId('problems-evaluator')).toHaveCount(0)
})

test('the scorers\' Try it takes plain text as well as JSON', async ({ page }) => {
  await newEvaluator(page)
  await page.getByTestId('node-evaluator').click()
  await page.getByLabel('Evaluation type').selectOption('scorers')
  const scorers = page.getByTestId('scorer-list')
  await scorers.getByRole('button', { name: 'Add scorer' }).click()
  await scorers.getByLabel('Scorer 1 type').selectOption('exact-match')
  const tryIt = page.getByTestId('try-it')
  await tryIt.getByText('Try it').click()
  await tryIt.getByLabel('Try actual').fill('The invoice total is 120 EUR.')
  await tryIt.getByLabel('Try expected').fill('The invoice total is 120 EUR.')
  await tryIt.getByRole('button', { name: 'Evaluate' }).click()
  await expect(tryIt.getByTestId('evaluator-result')).toContainText('passed')
  await expect(tryIt).not.toContainText('is not valid JSON')
  await tryIt.scrollIntoViewIfNeeded()
  await page.screenshot({ path: 'test-results/e2e/evaluator-try-scorers-text.png' })
})

test('an assertions evaluator shows its assertions as YAML, says what is wrong with a broken edit, and keeps a good one', async ({ page, request }) => {
  const created = await request.post('/api/workflows', { data: {
    name: `Assertions form ${Date.now()}`,
    nodes: [
      { id: 'in', type: 'input', config: { fields: { answer: { type: 'string' } } } },
      { id: 'judge', type: 'evaluator', config: { evaluation_type: 'assertions', content: '{{input.answer}}', assert: [{ type: 'icontains', value: 'hello' }] } },
    ],
    edges: [{ from: 'in', to: 'judge' }],
  } })
  expect(created.status()).toBe(201)
  const { id } = await created.json()
  await page.goto(`/workflows/${id}`)
  await page.getByTestId('node-judge').click()
  // The form, and the YAML parser with it, load once an assertions evaluator is opened.
  const assertions = page.getByLabel('Assertions', { exact: true })
  await expect(assertions).toHaveValue('- type: icontains\n  value: hello')

  await assertions.fill('- type: icontains\n  value: [hello')
  await assertions.press('Tab')
  await expect(page.getByText(/^Not valid YAML:/)).toBeVisible()
  await assertions.fill('- type: icontains\n  value: hello\n- type: regex\n  value: "^H"')
  await assertions.press('Tab')
  await expect(page.getByText(/^Not valid YAML:/)).toHaveCount(0)
  await page.keyboard.press('Control+s')
  await expect(page.getByRole('status').first()).toContainText('Saved version')
  const { definition } = await (await request.get(`/api/workflows/${id}`)).json()
  expect(definition.nodes.find((n: { id: string }) => n.id === 'judge').config.assert).toEqual([{ type: 'icontains', value: 'hello' }, { type: 'regex', value: '^H' }])
})
