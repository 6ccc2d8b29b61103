import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'

const gate = (name: string) => ({ name, nodes: [{ id: 'in', type: 'input', position: { x: 40, y: 40 } }, { id: 'out', type: 'output', config: { value: '{{input.question}}' }, position: { x: 260, y: 40 } }], edges: [{ from: 'in', to: 'out' }] })

test('a save over a version saved elsewhere asks what to do: Overwrite saves mine on top, Reload takes theirs', async ({ page, request }) => {
  const { id } = await (await request.post('/api/workflows', { data: gate('Shared gate') })).json()
  await page.goto(`/workflows/${id}`)
  await expect(page.getByLabel('Workflow name')).toHaveValue('Shared gate')
  await page.getByLabel('Workflow name').fill('Shared gate (mine)')
  await page.getByLabel('Workflow name').press('Tab')

  // Someone else saves version 2 while the editor still holds version 1.
  expect((await request.put(`/api/workflows/${id}`, { data: gate('Shared gate (theirs)') })).status()).toBe(200)
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  const conflict = page.getByRole('alertdialog', { name: 'Not saved: this workflow was changed elsewhere' })
  await expect(conflict).toBeVisible()
  await expect(conflict).toContainText('Version 2 was saved after version 1')
  await expect(conflict).toBeFocused()
  await page.screenshot({ path: 'test-results/e2e/editor-save-conflict.png' })
  const { violations } = await new AxeBuilder({ page }).include('[role="alertdialog"]').withTags(['wcag2a', 'wcag2aa']).analyze()
  expect(violations.map(v => `${v.id}: ${v.help}`)).toEqual([])
  expect((await (await request.get(`/api/workflows/${id}`)).json()).name).toBe('Shared gate (theirs)')

  // Keyboard only: Tab to Reload, Tab to Overwrite, Enter.
  await page.keyboard.press('Tab')
  await expect(conflict.getByRole('button', { name: 'Reload' })).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(conflict.getByRole('button', { name: 'Overwrite' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(conflict).toBeHidden()
  await expect(page.getByRole('status').first()).toContainText('Saved version 3')
  expect((await (await request.get(`/api/workflows/${id}`)).json())).toMatchObject({ version: 3, name: 'Shared gate (mine)' })

  // Again, and this time the other version is kept.
  await page.getByLabel('Workflow name').fill('Shared gate (mine, again)')
  await page.getByLabel('Workflow name').press('Tab')
  expect((await request.put(`/api/workflows/${id}`, { data: gate('Shared gate (theirs, v4)') })).status()).toBe(200)
  await page.keyboard.press('Control+s')
  await expect(conflict).toContainText('Version 4 was saved after version 3')
  await conflict.getByRole('button', { name: 'Reload' }).click()
  await expect(conflict).toBeHidden()
  await expect(page.getByLabel('Workflow name')).toHaveValue('Shared gate (theirs, v4)')
  await expect(page.getByText('v4', { exact: true })).toBeVisible()
  expect((await (await request.get(`/api/workflows/${id}`)).json()).version).toBe(4)
})
