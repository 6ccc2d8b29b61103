import { expect, test } from '@playwright/test'

const workflow = (name: string, step: string) => ({
  name,
  nodes: [
    { id: 'in', type: 'input', config: { fields: { text: { type: 'string', required: true } } } },
    { id: step, type: 'llm', config: { model: 'local:heuristic', prompt: 'Summarize {{input.text}}' }, pinned: ['A summary.'] },
  ],
  edges: [{ from: 'in', to: step }],
})

test('a new experiment targets a workflow picked from those that exist; a missing one is refused; the target can be changed later', async ({ page, request }) => {
  test.setTimeout(60_000)
  const first = await (await request.post('/api/workflows', { data: workflow('Summary writer', 'summarize') })).json()
  const second = await (await request.post('/api/workflows', { data: workflow('Headline writer', 'headline') })).json()

  await page.goto('/experiments')
  await expect(page.locator('body')).not.toContainText('examples/')
  await page.getByTestId('experiment-target').selectOption({ label: 'Summary writer' })
  await page.getByRole('button', { name: /Start from the rubric's template/ }).click()
  const definition = page.getByLabel('Experiment definition')
  await expect(definition).toHaveValue(new RegExp(`workflow_id: "${first.id}"`))
  await expect(definition).toHaveValue(/node: "summarize"/)
  await expect(definition).toHaveValue(/input_field: "text"/)
  await page.screenshot({ path: 'test-results/e2e/experiment-template-target.png' })

  // A workflow that does not exist is refused when the experiment is created.
  const text = await definition.inputValue()
  await definition.fill(text.replace(`workflow_id: "${first.id}"`, 'workflow_id: "Reviewer of nothing"'))
  await page.getByRole('button', { name: 'Create experiment' }).click()
  await expect(page.getByRole('alert')).toContainText('target.workflow_id: no workflow has the id or name "Reviewer of nothing"')
  await page.screenshot({ path: 'test-results/e2e/experiment-target-refused.png' })

  // Picking a workflow rewrites the target of the definition being written.
  await page.getByTestId('experiment-target').selectOption({ label: 'Summary writer' })
  await expect(definition).toHaveValue(new RegExp(`workflow_id: ${first.id}|workflow_id: "${first.id}"`))
  await page.getByRole('button', { name: 'Create experiment' }).click()
  await expect(page.getByRole('heading', { name: 'New experiment' })).toBeVisible()

  // On the experiment's page: another workflow and step.
  const picker = page.getByTestId('experiment-target-picker')
  await expect(picker.getByLabel('Target workflow')).toHaveValue(first.id)
  await picker.getByLabel('Target workflow').selectOption({ label: 'Headline writer' })
  await expect(picker.getByLabel('Target step')).toHaveValue('headline')
  await picker.getByRole('button', { name: 'Save target' }).click()
  await expect(page.getByRole('status')).toContainText('The target is now step headline')
  const experimentId = page.url().split('/').pop()!
  const saved = await (await request.get(`/api/experiments/${experimentId}`)).json()
  expect(saved.target).toMatchObject({ workflow_id: second.id, node: 'headline' })
  await page.screenshot({ path: 'test-results/e2e/experiment-target-picker.png', fullPage: true })
})
