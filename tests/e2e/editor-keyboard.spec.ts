import { expect, test } from '@playwright/test'
import { newWorkflow } from './helpers'

test('keyboard: Enter on a focused step opens its settings, Delete removes it, Ctrl+Y and Ctrl+Shift+Z redo', async ({ page }) => {
  await page.goto('/')
  await newWorkflow(page)
  await page.getByTestId('add-llm').click()
  await expect(page.getByTestId('node-llm')).toBeVisible()
  // Nothing selected: the panel invites a choice.
  await page.locator('.vue-flow__pane').click({ position: { x: 5, y: 5 } })
  await expect(page.getByText('Select a step to configure it')).toBeVisible()

  const node = page.locator('.vue-flow__node[data-id="llm"]')
  await node.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { name: 'Generate · LLM' })).toBeVisible()
  await expect(node).toBeFocused()
  await page.screenshot({ path: 'test-results/e2e/editor-keyboard-enter.png' })

  await page.keyboard.press('Delete')
  await expect(page.getByTestId('node-llm')).toHaveCount(0)
  await page.keyboard.press('Control+z')
  await expect(page.getByTestId('node-llm')).toBeVisible()
  await page.keyboard.press('Control+y')
  await expect(page.getByTestId('node-llm')).toHaveCount(0)
  await page.keyboard.press('Control+z')
  await expect(page.getByTestId('node-llm')).toBeVisible()
  await page.keyboard.press('Control+Shift+Z')
  await expect(page.getByTestId('node-llm')).toHaveCount(0)
  await page.screenshot({ path: 'test-results/e2e/editor-keyboard-redo.png' })
})
