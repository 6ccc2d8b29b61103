import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'

test('an experiment: import YAML, run a round live, read the report and its charts, correct a judgment', async ({ page, request }) => {
  test.setTimeout(90_000)
  const created = await request.post('/api/workflows', { data: JSON.parse(readFileSync('examples/reviewer.json', 'utf8')) })
  expect(created.status()).toBe(201)

  await page.goto('/')
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Experiments' }).click()
  await page.getByLabel('Experiment definition').fill(readFileSync('examples/experiment.yaml', 'utf8'))
  await page.getByRole('button', { name: 'Create experiment' }).click()
  await expect(page.getByRole('heading', { name: 'Review prompt' })).toBeVisible()
  await expect(page.getByTestId('current-best')).toHaveText('terse')

  await page.getByRole('button', { name: 'Run a round' }).click()
  await expect(page.getByTestId('round-progress')).toContainText('runs')
  await expect(page.getByTestId('recommendation')).toBeVisible({ timeout: 30_000 })
  await expect(page.getByTestId('round-progress')).toContainText('finished · 8/8 runs · 8 judged')
  // Both variants got the same pinned answer, so the same judgments: no reason to change.
  await expect(page.getByTestId('recommendation')).toContainText('Round 1: keep terse')
  await expect(page.getByTestId('recommendation')).toContainText('under the 0.5 that counts as an improvement')
  for (const chart of ['chart-categories', 'chart-spread', 'chart-history']) await expect(page.getByTestId(chart).locator('canvas')).toBeVisible()
  await expect(page.getByTestId('chart-categories')).toHaveAttribute('aria-label', /terse main \d/)
  await page.screenshot({ path: 'test-results/e2e/experiment-report.png', fullPage: true })

  // A reviewer downgrades one of careful's four A1 marks from ○ to ×: its mean drops by 0.25 and the
  // main category's rate by 0.25, a regression.
  const judgment = page.getByTestId('judgment-careful-contract-1')
  await judgment.locator('summary').click()
  await judgment.getByLabel('Mark of A1 in careful contract run 1').selectOption('×')
  await judgment.getByLabel('Reason for A1 in careful contract run 1').fill('the finding names the wrong clause')
  await page.getByRole('button', { name: 'Save corrections' }).click()
  await expect(page.getByRole('status')).toContainText('Corrections saved')
  await expect(page.getByRole('row', { name: /^careful/ })).toContainText('raw -0.25, adjusted -0.625 regression in main (−0.25)')
  await expect(page.getByTestId('recommendation')).toContainText('main fell from')
  await page.screenshot({ path: 'test-results/e2e/experiment-corrected.png', fullPage: true })
})
