import { expect, test } from '@playwright/test'

test('runs the A/B template and reads the ranking side by side; then compares two runs from the history', async ({ page }) => {
  test.setTimeout(60_000)
  await page.goto('/')
  await page.getByTestId('template-ab-test').click()
  await expect(page.getByTestId('node-judge')).toBeVisible()

  // The comparison form: the candidates are the two upstream answers.
  await page.getByTestId('node-judge').click()
  const picker = page.getByTestId('candidate-picker')
  await expect(picker).toContainText('{{steps.a.text}}')
  await expect(picker).toContainText('{{steps.b.text}}')

  for (let run = 1; run <= 2; run++) {
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await page.getByRole('button', { name: 'Start run' }).click()
    await expect(page.getByTestId('run-status')).toHaveText('succeeded', { timeout: 15_000 })
    await expect(page.getByTestId('inspect-judge')).toBeVisible()
  }
  const judge = page.getByTestId('inspect-judge')
  await judge.getByText('attempt 1: succeeded').click()
  const ab = judge.getByTestId('ab-view')
  await expect(ab).toContainText('Winner b')
  const cards = ab.getByTestId(/^candidate-/)
  await expect(cards).toHaveCount(2)
  await expect(cards.nth(0)).toHaveAttribute('data-testid', 'candidate-b')
  await expect(cards.nth(1)).toHaveAttribute('data-testid', 'candidate-a')
  await expect(ab.getByRole('meter', { name: 'Overall score of b' })).toHaveAttribute('aria-valuenow', '0.677')
  await expect(ab.getByRole('meter', { name: 'Overall score of a' })).toHaveAttribute('aria-valuenow', '0.12')
  await expect(ab.getByTestId('candidate-b')).toContainText('Forgot password')
  await expect(ab.getByTestId('candidate-a')).toContainText('relevance')
  await expect(ab).toContainText('position')
  await ab.scrollIntoViewIfNeeded()
  await page.screenshot({ path: 'test-results/e2e/ab-view.png' })

  // Run history: both runs listed; pick them and compare node by node.
  await page.getByRole('tab', { name: 'History' }).click()
  const rows = page.getByTestId('run-history').locator('tbody tr')
  await expect(rows).toHaveCount(2)
  await rows.nth(0).getByRole('checkbox').check()
  await rows.nth(1).getByRole('checkbox').check()
  await page.getByTestId('compare-runs').click()
  const compare = page.getByTestId('run-compare')
  await expect(compare).toBeVisible()
  for (const node of ['in', 'a', 'b', 'judge', 'best']) await expect(compare.getByTestId(`compare-row-${node}`)).toContainText('succeeded')
  await page.screenshot({ path: 'test-results/e2e/run-compare.png' })

  // Opening a past run from the history replays it on the canvas and in the inspector.
  await page.getByRole('tab', { name: 'History' }).click()
  await rows.nth(1).getByRole('button', { name: /^Open run/ }).click()
  await expect(page.getByTestId('status-judge')).toContainText('succeeded')
  await expect(page.getByTestId('inspect-judge')).toBeVisible()
})
