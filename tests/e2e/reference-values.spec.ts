import { expect, test } from '@playwright/test'

test('a reference field shows what it resolved to in the last run, and a misspelt one in the problem colour', async ({ page }) => {
  test.setTimeout(60_000)
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.goto('/')
  await page.getByTestId('template-quality-gate').click()
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await page.getByRole('button', { name: 'Start run' }).click()
  await expect(page.getByTestId('run-verdict')).toHaveText('pass', { timeout: 15_000 })

  // The condition reads the judge's verdict: under the field, the value it had in the run.
  await page.getByTestId('node-check').click()
  const side = page.getByRole('complementary', { name: 'Step settings' })
  const value = side.getByLabel('Value', { exact: true })
  await expect(value).toHaveValue('{{steps.judge.passed}}')
  const resolved = side.getByTestId('resolved-value')
  await expect(resolved).toHaveText('Last run: true')
  await expect(value).not.toHaveAttribute('aria-invalid', 'true')
  const plain = await value.evaluate(el => getComputedStyle(el).color)

  // Misspelt: the check names the nearest field, the field turns the problem colour, and the
  // last run's line says the reference found nothing there.
  await value.fill('{{steps.judge.pased}}')
  await value.press('Tab')
  await expect(side.getByText('did you mean `passed`?')).toBeVisible()
  await expect(value).toHaveAttribute('aria-invalid', 'true')
  await expect(resolved).toContainText('{{steps.judge.pased}} found nothing')
  const danger = await page.evaluate(() => {
    const probe = document.createElement('span')
    probe.style.color = 'var(--danger)'
    document.body.append(probe)
    const colour = getComputedStyle(probe).color
    probe.remove()
    return colour
  })
  expect(await value.evaluate(el => getComputedStyle(el).color)).toBe(danger)
  expect(await value.evaluate(el => getComputedStyle(el).borderTopColor)).toBe(danger)
  expect(await resolved.evaluate(el => getComputedStyle(el).color)).toBe(danger)
  expect(plain).not.toBe(danger)
  await page.screenshot({ path: 'test-results/e2e/reference-values.png' })
})
