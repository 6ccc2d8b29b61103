import { expect, test } from '@playwright/test'

/**
 * The dataset page reads its cases in pages (`GET /api/datasets/:id` answers 100 at a time): a
 * version the table edits is read whole before it can be saved, so that saving keeps every case; a
 * larger one is shown page by page, read-only. The report page's case table still shows each case's input.
 */

const casesOf = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `q${i + 1}`, input: { question: `question ${i + 1}` } }))

test('a dataset of 1,200 cases is read whole: an edit on the first page saves all 1,200 as the next version', async ({ page }) => {
  const created = await page.request.post('/api/datasets', { data: { name: `paged ${Date.now()}`, cases: casesOf(1_200) } })
  expect(created.status()).toBe(201)
  const { id } = await created.json()
  const first = await (await page.request.get(`/api/datasets/${id}`)).json()
  expect(first.cases).toHaveLength(100)
  expect(first.page).toMatchObject({ total: 1_200, limit: 100, max_limit: 1_000 })

  await page.goto(`/datasets/${id}`)
  await expect(page.getByText('version 1 of 1 · 1200 cases')).toBeVisible()
  await expect(page.getByRole('status').filter({ hasText: '1200 cases · version 1' })).toBeVisible()
  await expect(page.getByText('Cases 1–50 of 1200')).toBeVisible()
  await page.getByLabel('question of q2', { exact: true }).fill('question two, edited')
  await page.getByLabel('question of q2', { exact: true }).press('Tab')
  // The last page is there too: the whole version was read.
  for (let i = 0; i < 23; i++) await page.getByRole('button', { name: 'Next' }).click()
  await expect(page.getByText('Cases 1151–1200 of 1200')).toBeVisible()
  await expect(page.getByLabel('question of q1200', { exact: true })).toHaveValue('question 1200')
  await page.getByTestId('save-cases').click()
  await expect(page.getByText('Saved as version 2.')).toBeVisible()

  const saved = await (await page.request.get(`/api/datasets/${id}?limit=1000&offset=0`)).json()
  expect(saved).toMatchObject({ version: 2, case_count: 1_200, page: { total: 1_200 } })
  expect(saved.cases[1]).toEqual({ id: 'q2', input: { question: 'question two, edited' } })
  const exported = (await (await page.request.get(`/api/datasets/${id}/export?format=jsonl`)).text()).trim().split('\n')
  expect(exported).toHaveLength(1_200)
  expect(JSON.parse(exported.at(-1)!)).toEqual({ id: 'q1200', input: { question: 'question 1200' } })
})

test('a dataset past what the table edits is shown page by page, read-only, and says how to change it', async ({ page }) => {
  const created = await page.request.post('/api/datasets', { data: { name: `large ${Date.now()}`, cases: casesOf(6_000) } })
  expect(created.status()).toBe(201)
  const { id } = await created.json()

  await page.goto(`/datasets/${id}`)
  await expect(page.getByText('version 1 of 1 · 6000 cases')).toBeVisible()
  await expect(page.getByTestId('cases-read-only')).toHaveText(/Version 1 has 6,000 cases, more than the 5,000 this table edits: it is shown page by page\. To change it, export it, edit the file and import it as the next version below\./)
  await expect(page.getByTestId('save-cases')).toHaveCount(0)
  await expect(page.getByLabel('question of q1', { exact: true })).toBeDisabled()
  await expect(page.getByText('Cases 1–50 of 6000')).toBeVisible()
  await page.getByRole('button', { name: 'Next' }).click()
  await expect(page.getByText('Cases 51–100 of 6000')).toBeVisible()
  await expect(page.getByLabel('question of q51', { exact: true })).toHaveValue('question 51')
  await expect(page.getByLabel('question of q1', { exact: true })).toHaveCount(0)
})
