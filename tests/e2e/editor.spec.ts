import { expect, test } from '@playwright/test'

test('runs the quality-gate template from the editor: fails once, passes on retry, scores in the inspector', async ({ page }) => {
  await page.goto('/')
  await page.getByTestId('template-quality-gate').click()
  await expect(page.getByLabel('Workflow name')).toHaveValue('Quality gate')
  await expect(page.getByTestId('node-judge')).toBeVisible()
  await page.screenshot({ path: 'test-results/e2e/editor-template.png' })
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await page.getByRole('button', { name: 'Start run' }).click()
  await expect(page.getByTestId('run-verdict')).toHaveText('pass', { timeout: 15_000 })
  await expect(page.getByTestId('status-draft')).toContainText('succeeded')
  await expect(page.getByTestId('status-draft')).toContainText('attempt 2')
  const judge = page.getByTestId('inspect-judge')
  await expect(judge).toContainText('2 attempts')
  // The final attempt opens by itself.
  await expect(judge.getByText('attempt 2 (final): succeeded')).toBeVisible()
  await expect(judge.getByTestId('evaluator-result').last()).toContainText('passed')
  await page.screenshot({ path: 'test-results/e2e/editor-run.png', fullPage: true })
})
