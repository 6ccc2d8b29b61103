import { expect, test, type Locator, type Page } from '@playwright/test'
import { newWorkflow } from './helpers'

type Box = { x: number, y: number, width: number, height: number }
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
const boxes = async (locator: Locator) => Promise.all((await locator.all()).map(async l => (await l.boundingBox())!))

async function expectNothingCovered(page: Page) {
  const minimap = (await page.locator('.vue-flow__minimap').boundingBox())!
  const nodes = await boxes(page.locator('.vue-flow__node'))
  for (const [i, node] of nodes.entries()) {
    expect(overlap(node, minimap), `step ${i} under the minimap`).toBe(false)
    for (const other of nodes.slice(i + 1)) expect(overlap(node, other), `steps over each other`).toBe(false)
  }
}

test('a step\'s label is shown on it, and kept when saved', async ({ page }) => {
  await page.goto('/')
  await newWorkflow(page)
  await page.getByTestId('node-in').click()
  await page.getByLabel('Label', { exact: true }).fill('Customer question')
  await page.getByLabel('Label', { exact: true }).press('Tab')
  await expect(page.getByTestId('node-in')).toContainText('Customer question')
  await page.keyboard.press('Control+s')
  await expect(page.getByRole('status').first()).toContainText('Saved version 2')
  await page.reload()
  await expect(page.getByTestId('label-in')).toHaveText('Customer question')
  await page.screenshot({ path: 'test-results/e2e/editor-step-label.png' })
})

for (const viewport of [{ width: 1280, height: 720 }, { width: 1440, height: 900 }]) {
  test(`at ${viewport.width}×${viewport.height} the minimap covers no step, and steps from the palette land in view beside the selected one or in the middle`, async ({ page }) => {
    await page.setViewportSize(viewport)
    await page.goto('/')
    await page.getByTestId('template-quality-gate').click()
    await expect(page.locator('.vue-flow__minimap')).toBeVisible()
    await expectNothingCovered(page)

    const stage = (await page.locator('.stage').boundingBox())!
    const inStage = (box: Box) => box.x >= stage.x && box.y >= stage.y
      && box.x + box.width <= stage.x + stage.width && box.y + box.height <= stage.y + stage.height
    // Beside the selected step.
    await page.getByTestId('node-judge').click()
    const judge = (await page.getByTestId('node-judge').boundingBox())!
    await page.getByTestId('add-llm').click()
    const added = (await page.getByTestId('node-llm').boundingBox())!
    expect(inStage(added)).toBe(true)
    expect(Math.hypot(added.x - judge.x, added.y - judge.y)).toBeLessThan(400)
    // Nothing selected: the middle of the view.
    await page.locator('.vue-flow__pane').click({ position: { x: 5, y: 5 } })
    await page.getByTestId('add-output').click()
    const output = (await page.getByTestId('node-output').boundingBox())!
    expect(inStage(output)).toBe(true)
    await expect(page.locator('.vue-flow__minimap')).toBeVisible()
    const nodes = await boxes(page.locator('.vue-flow__node'))
    for (const [i, node] of nodes.entries()) for (const other of nodes.slice(i + 1)) expect(overlap(node, other), 'steps over each other').toBe(false)
    await page.screenshot({ path: `test-results/e2e/editor-placement-${viewport.width}x${viewport.height}.png` })

    // The minimap folds away and comes back.
    await page.getByRole('button', { name: 'Hide the minimap' }).click()
    await expect(page.locator('.vue-flow__minimap')).toHaveCount(0)
    await page.getByRole('button', { name: 'Show the minimap' }).click()
    await expect(page.locator('.vue-flow__minimap')).toBeVisible()
  })
}

test('on a fresh canvas, steps added one after another stay in view, none over another or under the minimap', async ({ page }) => {
  await page.goto('/')
  await newWorkflow(page)
  await expect(page.getByTestId('node-in')).toBeVisible()
  for (const type of ['llm', 'evaluator', 'condition', 'output']) {
    await page.getByTestId(`add-${type}`).click()
    await expect(page.getByTestId(`node-${type}`)).toBeInViewport({ ratio: 0.99 })
  }
  const stage = (await page.locator('.stage').boundingBox())!
  for (const box of await boxes(page.locator('.vue-flow__node'))) {
    expect(box.x >= stage.x && box.y >= stage.y && box.x + box.width <= stage.x + stage.width && box.y + box.height <= stage.y + stage.height, 'a step outside the view').toBe(true)
  }
  await expect(page.locator('.vue-flow__minimap')).toBeVisible()
  await expectNothingCovered(page)
  await page.screenshot({ path: 'test-results/e2e/editor-fresh-canvas-steps.png' })
})

test('after a drag, a connection is drawn with the mouse from one step\'s output to another\'s input', async ({ page }) => {
  await page.goto('/')
  await page.getByTestId('template-quality-gate').click()
  await expect(page).toHaveURL(/\/workflows\/[^/]+$/)
  const edge = page.getByRole('button', { name: 'Edge from judge to check', exact: true })
  await edge.click()
  await page.keyboard.press('Delete')
  await expect(edge).toHaveCount(0)
  const card = page.locator('.vue-flow__node[data-id="ok"]')
  const box = (await card.boundingBox())!
  await page.mouse.move(box.x + box.width / 2, box.y + 10)
  await page.mouse.down()
  await page.mouse.move(box.x + box.width / 2, box.y + 60, { steps: 4 })
  await page.mouse.up()
  const from = (await page.locator('.vue-flow__node[data-id="judge"] .vue-flow__handle.source').boundingBox())!
  const to = (await page.locator('.vue-flow__node[data-id="check"] .vue-flow__handle.target').boundingBox())!
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2)
  await page.mouse.down()
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 8 })
  await page.mouse.up()
  await expect(edge).toHaveCount(1)
})

test('dragging a step moves it and selects it on the drop: its settings open then, not while it moves; the move is saved', async ({ page }) => {
  await page.goto('/')
  await page.getByTestId('template-quality-gate').click()
  await expect(page).toHaveURL(/\/workflows\/[^/]+$/)
  const id = page.url().split('/').pop()!
  const positionOf = async (node: string) => {
    const { definition } = await (await page.request.get(`/api/workflows/${id}`)).json() as { definition: { nodes: { id: string, position?: { x: number, y: number } }[] } }
    return definition.nodes.find(n => n.id === node)!.position!
  }
  const saved = await positionOf('judge')
  const settings = page.getByRole('complementary', { name: 'Step settings' })
  await expect(settings).toHaveCount(0)
  const card = page.locator('.vue-flow__node[data-id="judge"]')
  const before = (await card.boundingBox())!
  await page.mouse.move(before.x + before.width / 2, before.y + 10)
  await page.mouse.down()
  await page.mouse.move(before.x + before.width / 2 + 40, before.y + 70, { steps: 6 })
  // Mid-drag: the card follows the pointer, and the canvas keeps its room (no settings column yet).
  await expect.poll(async () => (await card.boundingBox())!.y).toBeGreaterThan(before.y + 40)
  await expect(settings).toHaveCount(0)
  await expect(card).not.toHaveClass(/selected/)
  // The card holds the pointer while it moves: the browser sends it each move without searching
  // the other cards under the pointer first. Mouse pointers are number 1 in Chromium.
  const holding = () => page.evaluate(() => [...document.querySelectorAll('.vue-flow__node, .vue-flow__node *')]
    .filter(element => element.hasPointerCapture(1)).map(element => element.closest('.vue-flow__node')!.getAttribute('data-id')))
  expect(await holding()).toEqual(['judge'])
  await page.mouse.up()
  expect(await holding()).toEqual([])
  await expect(card).toHaveClass(/selected/)
  await expect(settings.getByRole('heading', { level: 2 })).toContainText('judge')
  // Released on the drop: the next press goes to the card under the pointer.
  const other = page.locator('.vue-flow__node[data-id="draft"]')
  await other.click()
  await expect(other).toHaveClass(/selected/)
  await expect(settings.getByRole('heading', { level: 2 })).toContainText('draft')
  // The move is part of the document, saved as the step's position.
  await page.keyboard.press('Control+s')
  await expect(page.getByRole('status').first()).toContainText('Saved version 2')
  const moved = await positionOf('judge')
  expect(moved.y - saved.y).toBeGreaterThan(40)
  expect(moved.x - saved.x).toBeGreaterThan(20)
})
