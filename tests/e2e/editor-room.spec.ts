import { expect, test, type Locator, type Page } from '@playwright/test'

type Box = { x: number, y: number, width: number, height: number }
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
const inside = (box: Box, area: Box) => box.x >= area.x - 0.5 && box.y >= area.y - 0.5
  && box.x + box.width <= area.x + area.width + 0.5 && box.y + box.height <= area.y + area.height + 0.5
const cards = (page: Page) => page.locator('.vue-flow__node')
async function boxes(locator: Locator): Promise<Array<Box & { id: string }>> {
  return Promise.all((await locator.all()).map(async l => ({ ...(await l.boundingBox())!, id: (await l.getAttribute('data-id')) ?? '' })))
}
/** Waits for the view to settle (a fit or a pan runs a frame or two after what caused it). */
const settle = (page: Page) => page.waitForTimeout(400)

async function expectNoOverlapAllInView(page: Page, when: string) {
  const stage = (await page.locator('.stage').boundingBox())!
  const all = await boxes(cards(page))
  for (const [i, card] of all.entries()) {
    expect(inside(card, stage), `${when}: ${card.id} is out of view`).toBe(true)
    for (const other of all.slice(i + 1)) expect(overlap(card, other), `${when}: ${card.id} over ${other.id}`).toBe(false)
  }
}

test('Backspace and Delete remove a step only while the canvas has focus, never from its settings', async ({ page }) => {
  await page.goto('/')
  await page.getByTestId('template-quality-gate').click()
  await page.getByTestId('node-judge').click()
  const side = page.getByRole('complementary', { name: 'Step settings' })
  await expect(side).toBeVisible()
  const button = side.locator('button:not([disabled])').first()
  await button.focus()
  await expect(button).toBeFocused()
  for (const key of ['Backspace', 'Delete']) {
    await page.keyboard.press(key)
    await expect(page.getByTestId('node-judge'), `${key} in the settings`).toBeVisible()
  }
  // Focus on the page itself (nothing focused) is not the canvas either.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
  await page.keyboard.press('Backspace')
  await expect(page.getByTestId('node-judge')).toBeVisible()
  await expect(page.locator('.vue-flow__edge:not(.loop)')).toHaveCount(6)
  // On the canvas, Delete removes the selected step.
  await page.getByTestId('node-judge').click()
  await page.keyboard.press('Backspace')
  await expect(page.getByTestId('node-judge')).toHaveCount(0)
})

for (const template of ['quality-gate', 'feedback-loop', 'ab-test']) {
  test(`${template}: auto-layout lays cards out by their size, none over another and all in view, before and after a run`, async ({ page }) => {
    test.setTimeout(60_000)
    await page.goto('/')
    await page.getByTestId(`template-${template}`).click()
    await expect(page.getByTestId('node-in')).toBeVisible()
    await page.getByRole('button', { name: 'Auto-layout' }).click()
    await settle(page)
    await expectNoOverlapAllInView(page, 'after auto-layout')
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await page.getByRole('button', { name: 'Start run' }).click()
    await expect(page.getByTestId('run-status')).toHaveText('succeeded', { timeout: 15_000 })
    await settle(page)
    await expectNoOverlapAllInView(page, 'after a run')
    await page.screenshot({ path: `test-results/e2e/editor-room-layout-${template}.png` })
  })
}

test('a pasted step lands clear of every card and edge, named after its original', async ({ page }) => {
  await page.goto('/')
  await page.getByTestId('template-ab-test').click()
  await expect(page.getByTestId('node-judge')).toBeVisible()
  await page.getByTestId('node-judge').click()
  await page.keyboard.press('Control+c')
  for (const id of ['judge_2', 'judge_3']) {
    await page.keyboard.press('Control+v')
    await expect(page.getByTestId(`node-${id}`)).toBeVisible()
    await settle(page)
    const copy = (await page.getByTestId(`node-${id}`).boundingBox())!
    for (const card of await boxes(cards(page))) {
      if (card.id !== id) expect(overlap(copy, card), `${id} over ${card.id}`).toBe(false)
    }
    for (const edge of await boxes(page.locator('.vue-flow__edge:not(.loop) .vue-flow__edge-path'))) {
      expect(overlap(copy, edge), `${id} over an edge`).toBe(false)
    }
    await page.getByTestId('node-judge').click()
  }
  await expect(page.getByTestId('node-evaluator')).toHaveCount(0)
  await page.screenshot({ path: 'test-results/e2e/editor-room-paste.png' })
})

test('Ctrl+V names the copy after its original: Judge 2, then Judge 3', async ({ page }) => {
  await page.goto('/')
  await page.getByTestId('template-quality-gate').click()
  await page.getByTestId('node-judge').click()
  await page.keyboard.press('Control+c')
  await page.keyboard.press('Control+v')
  await expect(page.getByTestId('label-judge_2')).toHaveText('Judge 2')
  await page.keyboard.press('Control+v')
  await expect(page.getByTestId('label-judge_3')).toHaveText('Judge 3')
  await expect(page.getByTestId('label-judge')).toHaveText('Judge')
})

test('closing the settings column brings the steps the open column pushed aside back into view', async ({ page }) => {
  await page.goto('/')
  await page.getByTestId('template-quality-gate').click()
  await expect(page.getByTestId('node-ko')).toBeVisible()
  await settle(page)
  await page.getByTestId('node-ko').click()
  await settle(page)
  const stage = (await page.locator('.stage').boundingBox())!
  expect(inside((await page.getByTestId('node-ko').boundingBox())!, stage), 'the selected step stays in view').toBe(true)
  await page.locator('.vue-flow__pane').click({ position: { x: 5, y: 5 } })
  await expect(page.getByRole('complementary', { name: 'Step settings' })).toHaveCount(0)
  await settle(page)
  await expectNoOverlapAllInView(page, 'after the column closed')
})

test('at 1280×720 the empty run panel is folded to a bar that remembers being opened, and the chrome keeps off the cards', async ({ page }) => {
  await page.goto('/')
  await page.getByTestId('template-quality-gate').click()
  await expect(page.getByTestId('node-ko')).toBeVisible()
  await settle(page)
  const stage = (await page.locator('.stage').boundingBox())!
  expect(stage.height, 'the canvas takes the room the empty run panel would').toBeGreaterThan(540)
  await expect(page.getByTestId('runs-empty')).toHaveCount(0)
  await expectNoOverlapAllInView(page, 'at first')

  // Neither the hint nor the minimap is drawn over a card (a card under them fades them).
  await expect(page.locator('.vue-flow__minimap')).toBeVisible()
  const visibleOver = async (chrome: Locator) => {
    const box = (await chrome.boundingBox())!
    const opacity = Number(await chrome.evaluate(el => getComputedStyle(el).opacity))
    return opacity > 0.5 && (await boxes(cards(page))).some(card => overlap(card, box))
  }
  const hint = page.getByText('Select a step to configure it')
  await expect(hint).toBeVisible()
  expect(await visibleOver(hint), 'the hint over a card').toBe(false)
  expect(await visibleOver(page.locator('.vue-flow__minimap')), 'the minimap over a card').toBe(false)
  // Zoomed in, cards reach under them: they fade rather than cover.
  for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Zoom in', exact: true }).click()
  await settle(page)
  expect(await visibleOver(hint), 'the hint over a card, zoomed in').toBe(false)
  expect(await visibleOver(page.locator('.vue-flow__minimap')), 'the minimap over a card, zoomed in').toBe(false)
  await page.getByRole('button', { name: 'Fit the workflow in view' }).click()

  // The bar opens the panel, and the choice holds after a reload.
  await page.getByTestId('toggle-run-panel').click()
  await expect(page.getByTestId('runs-empty')).toBeVisible()
  await page.reload()
  await expect(page.getByTestId('runs-empty')).toBeVisible()
  await page.getByTestId('toggle-run-panel').click()
  await expect(page.getByTestId('runs-empty')).toHaveCount(0)
  await page.reload()
  await expect(page.getByTestId('node-ko')).toBeVisible()
  await expect(page.getByTestId('runs-empty')).toHaveCount(0)
  await page.screenshot({ path: 'test-results/e2e/editor-room-1280x720.png' })
})
