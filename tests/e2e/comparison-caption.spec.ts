import { expect, test } from '@playwright/test'
import { runTemplate } from './helpers'

test('a comparison\'s result card in the settings column reads its ranking caption on one line across the card', async ({ page }) => {
  test.setTimeout(60_000)
  await runTemplate(page, 'ab-test')

  await page.getByTestId('node-judge').click()
  const card = page.getByRole('complementary', { name: 'Step settings' }).getByTestId('step-run-data').getByTestId('evaluator-result')
  const caption = card.locator('caption')
  await expect(caption).toContainText(/Ranking · winner b/)
  await expect(card).toContainText(/[Pp]osition consistency 1/)
  await caption.scrollIntoViewIfNeeded()
  const [box, cardBox, lineHeight] = await Promise.all([
    caption.boundingBox(),
    card.boundingBox(),
    caption.evaluate(el => Number.parseFloat(getComputedStyle(el).lineHeight) || Number.parseFloat(getComputedStyle(el).fontSize) * 1.2),
  ])
  expect(box!.height).toBeLessThan(lineHeight * 1.5)
  expect(box!.width).toBeGreaterThan(cardBox!.width * 0.8)
  await page.screenshot({ path: 'test-results/e2e/comparison-caption.png' })
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.screenshot({ path: 'test-results/e2e/comparison-caption-dark.png' })
})
