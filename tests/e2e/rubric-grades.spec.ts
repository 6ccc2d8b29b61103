import { expect, test, type APIRequestContext, type Page } from '@playwright/test'

const GRADES = [
  { grade: 'A', min_score: 0.9, description: 'Excellent' },
  { grade: 'B', min_score: 0.8, description: 'Good' },
  { grade: 'C', min_score: 0.7, description: 'Adequate' },
  { grade: 'D', min_score: 0.6, description: 'Weak' },
  { grade: 'F', min_score: 0, description: 'Failing' },
]

/** A workflow whose evaluator grades with a rubric, its settings open in the editor. */
async function openRubric(page: Page, request: APIRequestContext, extra: Record<string, unknown> = {}) {
  const response = await request.post('/api/workflows', {
    data: {
      name: 'Graded',
      nodes: [
        { id: 'in', type: 'input', config: { fields: { text: { type: 'string' } } }, position: { x: 0, y: 80 } },
        { id: 'judge', type: 'evaluator', config: { evaluation_type: 'rubric', model: 'local:heuristic', content: '{{input.text}}', rubric: { grades: GRADES }, ...extra }, position: { x: 300, y: 80 } },
      ],
      edges: [{ from: 'in', to: 'judge' }],
    },
  })
  expect(response.status()).toBe(201)
  const { id } = await response.json()
  await page.goto(`/workflows/${id}`)
  await page.getByTestId('node-judge').click()
  return id as string
}

test('a new grade is filled in field after field with Tab: focus stays in its row and the row stays where it is until focus leaves the grades', async ({ page, request }) => {
  await openRubric(page, request)
  await page.getByRole('button', { name: 'Add grade' }).click()
  const name = page.getByLabel('Grade 6', { exact: true })
  await name.click()
  await name.fill('Outstanding')
  await name.press('Tab')
  const min = page.getByLabel('Grade 6 min score')
  await expect(min).toBeFocused()
  await min.fill('0.95')
  await min.press('Tab')
  // The band column is text, not a field: the next field is the same grade's description.
  const description = page.getByLabel('Grade 6 description')
  await expect(description).toBeFocused()
  await description.fill('Beyond what was asked')
  await description.press('Tab')

  // Nothing was written into another grade while its rows stayed put.
  await expect(page.getByLabel('Grade 6', { exact: true })).toHaveValue('Outstanding')
  await expect(page.getByLabel('Grade 6 min score')).toHaveValue('0.95')
  await expect(page.getByLabel('Grade 5', { exact: true })).toHaveValue('F')
  await expect(page.getByLabel('Grade 5 description')).toHaveValue('Failing')

  // Leaving the grades sorts them by min score, highest first.
  await page.getByLabel('Evaluation type').focus()
  await expect(page.getByLabel('Grade 1', { exact: true })).toHaveValue('Outstanding')
  await expect(page.getByLabel('Grade 1 description')).toHaveValue('Beyond what was asked')
  await expect(page.getByLabel('Grade 6', { exact: true })).toHaveValue('F')
  await expect(page.getByLabel('Grade 6 description')).toHaveValue('Failing')

  // A grade added next is ready to be named.
  await page.getByRole('button', { name: 'Add grade' }).click()
  await expect(page.getByLabel('Grade 7', { exact: true })).toBeFocused()
})

test('a grade\'s problem reads as a sentence naming the grade and the field', async ({ page, request }) => {
  await openRubric(page, request)
  await page.getByRole('button', { name: 'Add grade' }).click()
  const name = page.getByLabel('Grade 6', { exact: true })
  await name.fill('Far beyond expectations')
  await name.press('Tab')
  const editor = page.getByRole('group', { name: 'Rubric grades' })
  await expect(editor.getByText('Grade 6: the name can be at most 16 characters.')).toBeVisible()
  await expect(editor).not.toContainText('Too big')
  await page.screenshot({ path: 'test-results/e2e/rubric-grades-error.png' })
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.screenshot({ path: 'test-results/e2e/rubric-grades-error-dark.png' })
})

test('criteria keep focus while named with Tab, and a moved criterion keeps its row\'s focus', async ({ page, request }) => {
  await openRubric(page, request)
  await page.getByRole('button', { name: 'Add criterion' }).click()
  await page.getByRole('button', { name: 'Add criterion' }).click()
  const first = page.getByLabel('Criterion 1 name')
  await first.fill('accuracy')
  await first.press('Tab')
  // The row's buttons follow its name.
  await expect(page.getByRole('button', { name: 'Move criterion 1 down' })).toBeFocused()
  await page.getByLabel('Criterion 2 name').fill('clarity')
  await page.getByLabel('Criterion 2 name').press('Tab')
  await page.getByRole('button', { name: 'Move criterion 2 up' }).click()
  await expect(page.getByLabel('Criterion 1 name')).toHaveValue('clarity')
  // Focus went along with the moved row: its button now moves it down.
  await expect(page.getByRole('button', { name: 'Move criterion 1 down' })).toBeFocused()
})
