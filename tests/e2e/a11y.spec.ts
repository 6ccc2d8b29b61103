import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'

/** Serious and critical WCAG A/AA findings, with where they are, so a failure says what to fix. */
async function violations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze()
  return violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')}`)
}

test('the workflow list and the editor have labelled, keyboard-reachable controls (axe, WCAG A/AA)', async ({ page }) => {
  // The pages run under their Content-Security-Policy without a violation.
  const cspViolations: string[] = []
  page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text()) })
  await page.goto('/')
  await expect(page.getByTestId('template-quality-gate')).toBeVisible()
  expect(await violations(page)).toEqual([])

  await page.getByTestId('template-quality-gate').click()
  await page.getByTestId('node-judge').click()
  await expect(page.getByLabel('Evaluation type')).toBeVisible()
  expect(await violations(page)).toEqual([])

  // Keyboard only: Tab goes from the toolbar to the palette; Enter on a palette button adds a step.
  await page.getByRole('button', { name: 'Run', exact: true }).focus()
  await page.keyboard.press('Tab')
  await expect(page.getByTestId('add-input')).toBeFocused()
  await page.getByTestId('add-llm').focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('node-llm')).toBeVisible()
  expect(await violations(page)).toEqual([])
  expect(cspViolations).toEqual([])
})

test('the editor fits a 1280×720 window: canvas, settings and runs all on screen', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 })
  await page.goto('/')
  await page.getByTestId('template-quality-gate').click()
  await page.getByTestId('node-judge').click()
  for (const region of ['Steps', 'Step settings', 'Runs']) {
    const box = (await page.getByRole(region === 'Runs' ? 'region' : 'complementary', { name: region }).boundingBox())!
    expect(box.x + box.width, region).toBeLessThanOrEqual(1280)
    expect(box.y + box.height, region).toBeLessThanOrEqual(720)
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280)
  await page.screenshot({ path: 'test-results/e2e/editor-1280x720.png' })
})

test('the editor opened at its own address (a bookmark, a refresh) has the shared styles', async ({ page }) => {
  await page.goto('/')
  await page.getByTestId('template-quality-gate').click()
  await expect(page.getByTestId('node-judge')).toBeVisible()
  await page.reload()
  await expect(page.getByTestId('node-judge')).toBeVisible()
  const styles = await page.evaluate(() => ({
    body: getComputedStyle(document.body).margin,
    font: getComputedStyle(document.documentElement).fontFamily,
    header: getComputedStyle(document.querySelector('.topbar')!).borderBottomStyle,
  }))
  expect(styles).toEqual({ body: '0px', font: 'system-ui, sans-serif', header: 'solid' })
  // The minimap joins a moment after the steps, with a shape per step.
  await expect(page.locator('.vue-flow__minimap-node')).toHaveCount(7)
  await page.screenshot({ path: 'test-results/e2e/editor-reloaded.png' })
})

test('in the dark theme (the system setting) the list, the editor, a step\'s settings and a run have no contrast or labelling findings (axe)', async ({ page }) => {
  test.setTimeout(60_000)
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.goto('/')
  await expect(page.getByTestId('template-quality-gate')).toBeVisible()
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe('dark')
  expect(await violations(page)).toEqual([])
  await page.getByTestId('template-quality-gate').click()
  await page.getByTestId('node-judge').click()
  await expect(page.getByLabel('Evaluation type')).toBeVisible()
  expect(await violations(page)).toEqual([])
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByRole('button', { name: 'Start run' })).toBeVisible()
  expect(await violations(page)).toEqual([])
  await page.getByRole('button', { name: 'Start run' }).click()
  await expect(page.getByTestId('run-verdict')).toHaveText('pass', { timeout: 15_000 })
  await page.getByTestId('node-judge').click()
  await expect(page.getByTestId('step-run-data')).toBeVisible()
  expect(await violations(page)).toEqual([])
  await page.goto('/experiments')
  expect(await violations(page)).toEqual([])
  await page.screenshot({ path: 'test-results/e2e/a11y-dark-experiments.png' })
})
