import { readFileSync } from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'

/** The answer first: a finished run in the editor opens with what it came to, before how. */
const qualityGate = JSON.parse(readFileSync(new URL('../../examples/quality-gate.json', import.meta.url), 'utf8'))
const abTest = JSON.parse(readFileSync(new URL('../../examples/ab-test.json', import.meta.url), 'utf8'))

async function violations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze()
  return violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')}`)
}

/** Opens a template from the gallery and runs it from the toolbar until it ends. */
async function runTemplate(page: Page, template: string) {
  await page.goto('/')
  await page.getByTestId(`template-${template}`).click()
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await page.getByRole('button', { name: 'Start run' }).click()
  await expect(page.getByTestId('run-status')).toHaveText('succeeded', { timeout: 15_000 })
}

test('a finished run opens with its summary in the run panel: verdict, the judge\'s score, the final output, above the attempts', async ({ page }) => {
  test.setTimeout(60_000)
  await page.setViewportSize({ width: 1280, height: 720 })
  await runTemplate(page, 'quality-gate')
  const runs = page.getByRole('region', { name: 'Runs' })
  const summary = runs.getByRole('region', { name: 'Outcome' })
  await expect(summary).toBeVisible()
  await expect(summary.getByTestId('outcome-verdict')).toHaveText('pass')
  await expect(summary.getByTestId('run-reason')).toContainText('Passed at judge: score 0.93 against a threshold of 0.6')
  await expect(summary.getByTestId('run-final-output')).toHaveText(qualityGate.nodes.find((n: { id: string }) => n.id === 'draft').pinned[1])
  // First in the panel: its verdict line is in view as the run ends, above the attempts.
  await expect(summary.getByTestId('outcome-verdict')).toBeInViewport()
  const timeline = runs.getByTestId('retry-timeline')
  expect((await summary.boundingBox())!.y).toBeLessThan((await timeline.boundingBox())!.y)
  await page.screenshot({ path: 'test-results/ub/run-summary-quality-gate.png' })
  expect(await violations(page)).toEqual([])
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.screenshot({ path: 'test-results/ub/run-summary-quality-gate-dark.png' })
  expect(await violations(page)).toEqual([])
})

test('an A/B run\'s summary names the winner and its answer', async ({ page }) => {
  test.setTimeout(60_000)
  await page.setViewportSize({ width: 1280, height: 720 })
  await runTemplate(page, 'ab-test')
  const summary = page.getByRole('region', { name: 'Runs' }).getByRole('region', { name: 'Outcome' })
  const b = abTest.nodes.find((n: { id: string }) => n.id === 'b').pinned[0]
  await expect(summary.getByTestId('outcome-winner')).toHaveText(`Winner: b — ${b}`)
  await page.screenshot({ path: 'test-results/ub/run-summary-ab.png' })
})

test('after a run, an Output card shows the value it gave; one not reached shows none', async ({ page }) => {
  test.setTimeout(60_000)
  await page.setViewportSize({ width: 1280, height: 720 })
  await runTemplate(page, 'quality-gate')
  const answer: string = qualityGate.nodes.find((n: { id: string }) => n.id === 'draft').pinned[1]
  const value = page.getByTestId('value-ok')
  await expect(value).toBeVisible()
  // One line on the card, the whole value on hover.
  await expect(value).toHaveAttribute('title', answer)
  expect(answer.startsWith((await value.textContent())!.replace(/…$/, ''))).toBe(true)
  const box = (await value.boundingBox())!
  const card = (await page.getByTestId('node-ok').boundingBox())!
  expect(box.x + box.width).toBeLessThanOrEqual(card.x + card.width)
  await expect(page.getByTestId('value-ko')).toHaveCount(0)
  await page.getByTestId('node-ok').screenshot({ path: 'test-results/ub/output-card-value.png' })
})
