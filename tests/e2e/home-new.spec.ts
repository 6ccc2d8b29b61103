import { expect, test, type APIRequestContext } from '@playwright/test'

const names = async (request: APIRequestContext) => ((await (await request.get('/api/workflows')).json()) as Array<{ name: string }>).map(w => w.name)

test('New workflow asks for a name: Esc and Cancel create nothing, Enter creates the workflow under that name', async ({ page, request }) => {
  const before = await names(request)
  await page.goto('/')
  await expect(page.getByTestId('template-quality-gate')).toBeVisible()
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme })
    await page.screenshot({ path: `test-results/e2e/home-${theme}.png` })
  }
  await page.emulateMedia({ colorScheme: 'light' })

  const dialog = page.getByRole('dialog', { name: 'New workflow' })
  const name = dialog.getByLabel('Name')
  await page.getByRole('button', { name: 'New workflow' }).click()
  await expect(name).toBeFocused()
  await name.fill('Thrown away')
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await page.getByRole('button', { name: 'New workflow' }).click()
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(page).toHaveURL(/\/$/)
  expect(await names(request)).toEqual(before)

  await page.getByRole('button', { name: 'New workflow' }).click()
  await expect(dialog.getByRole('button', { name: 'Create' })).toBeDisabled()
  await name.fill('Support answer gate')
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme })
    await page.screenshot({ path: `test-results/e2e/home-new-${theme}.png` })
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await name.press('Enter')
  await expect(page).toHaveURL(/\/workflows\/[\w-]+$/)
  await expect(page.getByLabel('Workflow name')).toHaveValue('Support answer gate')
  const after = await names(request)
  expect(after.filter(n => !before.includes(n))).toEqual(['Support answer gate'])
  expect(after).not.toContain('Untitled workflow')
})
