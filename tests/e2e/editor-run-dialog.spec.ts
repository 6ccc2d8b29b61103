import { expect, test } from '@playwright/test'
import { newWorkflow } from './helpers'

test('the toolbar keeps still when "unsaved" appears: a click on Save right after typing saves', async ({ page }) => {
  await page.goto('/')
  await newWorkflow(page)
  await expect(page.getByTestId('node-in')).toBeVisible()
  const save = page.getByRole('button', { name: 'Save', exact: true })
  const run = page.getByRole('button', { name: 'Run', exact: true })
  const before = [await save.boundingBox(), await run.boundingBox()]
  // Typing, then a click straight on Save: the field's change shows "· unsaved" as the click lands.
  await page.getByLabel('Workflow name').fill('A renamed workflow')
  await save.click()
  await expect(page.getByRole('status').first()).toContainText('Saved version 2')
  await page.getByLabel('Workflow name').fill('Renamed again')
  await page.getByLabel('Workflow name').press('Tab')
  await expect(page.getByText('· unsaved')).toBeVisible()
  expect([await save.boundingBox(), await run.boundingBox()]).toEqual(before)
  await page.screenshot({ path: 'test-results/e2e/editor-toolbar-unsaved.png' })
})

test('Run on an invalid workflow saves nothing and says why inside the run dialog', async ({ page, request }) => {
  await page.goto('/')
  await newWorkflow(page)
  await expect(page.getByTestId('node-in')).toBeVisible()
  const id = page.url().split('/').pop()!
  // An LLM step with neither model nor prompt: the server refuses to run it.
  await page.getByTestId('add-llm').click()
  await expect(page.getByText('· unsaved')).toBeVisible()
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Run the workflow' })
  await dialog.getByRole('button', { name: 'Start run' }).click()
  await expect(dialog.getByRole('alert')).toContainText('The workflow is invalid and was not saved: Generate (llm): Model is required')
  await expect(dialog).toBeVisible()
  await expect(page.locator('.toolbar .message')).toHaveText('')
  await expect(page.locator('.toolbar .version')).toContainText('v1')
  expect((await (await request.get(`/api/workflows/${id}`)).json()).version).toBe(1)
  await page.screenshot({ path: 'test-results/e2e/run-dialog-invalid.png' })
})

test('a required run input left empty does not start the run', async ({ page }) => {
  await page.goto('/')
  await newWorkflow(page)
  await page.getByTestId('node-in').click()
  await page.getByRole('button', { name: 'Add input field' }).click()
  const name = page.getByLabel('Input field 1 name')
  await name.fill('question')
  await name.press('Tab')
  await page.getByLabel('Input field 1 required').check()
  await page.keyboard.press('Control+s')
  await expect(page.getByRole('status').first()).toContainText('Saved version')
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Run the workflow' })
  await dialog.getByRole('button', { name: 'Start run' }).click()
  await expect(dialog.getByRole('alert')).toHaveText('Fill in the required field question.')
  await expect(page.getByTestId('run-status')).toHaveCount(0)
  await page.screenshot({ path: 'test-results/e2e/run-dialog-required.png' })
  await dialog.getByRole('textbox', { name: 'question' }).fill('How do I reset my password?')
  await dialog.getByRole('button', { name: 'Start run' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByTestId('run-status')).toBeVisible({ timeout: 15_000 })
})
