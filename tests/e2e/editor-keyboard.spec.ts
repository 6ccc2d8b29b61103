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

test('keyboard: arrow keys move the selected step, the move is saved with the workflow, and Ctrl+Z takes it back', async ({ page }) => {
  await page.goto('/')
  await page.getByTestId('template-quality-gate').click()
  await expect(page).toHaveURL(/\/workflows\/[^/]+$/)
  const id = page.url().split('/').pop()!
  const saved = async () => {
    const { definition } = await (await page.request.get(`/api/workflows/${id}`)).json() as { definition: { nodes: { id: string, position: { x: number, y: number } }[] } }
    return definition.nodes.find(n => n.id === 'judge')!.position
  }
  const before = await saved()
  const node = page.locator('.vue-flow__node[data-id="judge"]')
  await expect(node).toBeVisible()
  // Opening a workflow (the canvas placing its steps) is not a change.
  await expect(page.getByText('unsaved')).toBeHidden()
  await node.focus()
  await page.keyboard.press('Enter')
  await expect(node).toHaveClass(/selected/)
  // Where the card is once its settings have opened beside the canvas.
  await expect(page.getByRole('heading', { name: /Judge/ })).toBeVisible()
  const start = (await node.boundingBox())!
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowRight')
  // A change of the document like any other: unsaved, and saved with the workflow.
  await expect(page.getByText('unsaved')).toBeVisible()
  await page.keyboard.press('Control+s')
  await expect(page.getByRole('status').first()).toContainText('Saved version 2')
  const moved = await saved()
  expect(moved.y - before.y).toBeGreaterThanOrEqual(5)
  expect(moved.x - before.x).toBeGreaterThanOrEqual(1)
  // Undone from the keyboard, the step goes back where it was: the presses in a row are one undo step.
  await page.keyboard.press('Control+z')
  await expect.poll(async () => {
    const box = (await node.boundingBox())!
    return [Math.round(box.x - start.x), Math.round(box.y - start.y)]
  }).toEqual([0, 0])
  await page.keyboard.press('Control+s')
  await expect(page.getByRole('status').first()).toContainText('Saved version 3')
  expect(await saved()).toEqual(before)
})
