import { expect, test } from '@playwright/test'

test('the workflow list shows saved workflows and renders names as text', async ({ page, request }) => {
  const payload = '<img src=x onerror="window.__pwned=1">'
  const created = await request.post('/api/workflows', { data: { name: `Gate ${payload}`, nodes: [{ id: 'in', type: 'input' }] } })
  expect(created.status()).toBe(201)
  await page.goto('/')
  await expect(page.getByRole('heading', { name: 'Workflows' })).toBeVisible()
  await expect(page.getByRole('cell', { name: `Gate ${payload}`, exact: true })).toBeVisible()
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined()
  await page.screenshot({ path: 'test-results/e2e/home.png', fullPage: true })
})
