import { expect, test } from '@playwright/test'
import { newWorkflow, runTemplate } from './helpers'

test.use({ viewport: { width: 1440, height: 900 } })

test('the editor keeps to the window: no hidden text below it, the palette\'s wheel stays there, the comparison reads in its cards', async ({ page }) => {
  test.setTimeout(60_000)
  await runTemplate(page, 'ab-test')
  const judge = page.getByTestId('inspect-judge')
  await judge.getByText('attempt 1: succeeded').click()
  const ab = judge.getByTestId('ab-view')
  await expect(ab).toContainText('Winner b')
  // Screen-reader text stays inside its panel instead of stretching the page.
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(900)
  // Each card's header (rank, id, badge, score) stays on one line.
  for (const top of await ab.locator('.card .top').all()) {
    const box = (await top.boundingBox())!
    expect(box.height).toBeLessThan(40)
    expect(box.width).toBeGreaterThan(200)
    expect((await top.locator('.rank').boundingBox())!.height, 'the rank on one line').toBeLessThan(26)
  }
  await ab.scrollIntoViewIfNeeded()
  await page.screenshot({ path: 'test-results/e2e/editor-layout-comparison-1440x900.png' })

  // The wheel over the palette does not scroll the editor away.
  const toolbar = (await page.locator('.toolbar').boundingBox())!
  const palette = (await page.getByTestId('add-llm').boundingBox())!
  await page.mouse.move(palette.x + palette.width / 2, palette.y + palette.height / 2)
  await page.mouse.wheel(0, 800)
  await page.waitForTimeout(300)
  expect(await page.evaluate(() => window.scrollY)).toBe(0)
  expect((await page.locator('.toolbar').boundingBox())!.y).toBe(toolbar.y)
  await page.screenshot({ path: 'test-results/e2e/editor-layout-wheel.png' })
})

for (const viewport of [{ width: 1280, height: 720 }, { width: 1440, height: 900 }]) {
  test(`at ${viewport.width}×${viewport.height} an input field's row fits the panel and a long condition error wraps`, async ({ page }) => {
    await page.setViewportSize(viewport)
    await page.goto('/')
    await newWorkflow(page)
    await page.getByTestId('node-in').click()
    await page.getByRole('button', { name: 'Add input field' }).click()
    const side = page.getByRole('complementary', { name: 'Step settings' })
    const panel = (await side.boundingBox())!
    const row = (await page.getByTestId('input-fields').locator('.row').first().boundingBox())!
    expect(row.x + row.width).toBeLessThanOrEqual(panel.x + panel.width)
    for (const control of ['Input field 1 name', 'Input field 1 type', 'Remove input field 1']) {
      const box = (await side.getByLabel(control).boundingBox())!
      expect(box.x + box.width, control).toBeLessThanOrEqual(panel.x + panel.width)
    }
    await page.screenshot({ path: `test-results/e2e/editor-input-field-row-${viewport.width}x${viewport.height}.png` })

    await page.getByTestId('add-condition').click()
    const left = page.getByLabel('Value', { exact: true })
    await left.fill(`{{steps.${'a_step_with_a_very_long_name_that_does_not_exist_'.repeat(3)}.text}}`)
    await left.press('Tab')
    await expect(side.locator('.error, .problems').first()).toContainText('does not exist')
    expect(await side.evaluate(el => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0)
    await page.screenshot({ path: `test-results/e2e/editor-condition-error-${viewport.width}x${viewport.height}.png` })
  })
}
