import { expect, test } from '@playwright/test'

test('switching the evaluation type keeps what still applies and asks before removing the rest; Cancel and Esc keep the old type, Undo brings removed settings back', async ({ page, request }) => {
  const response = await request.post('/api/workflows', {
    data: {
      name: 'Switched',
      nodes: [
        { id: 'in', type: 'input', config: { fields: { question: { type: 'string' }, answer: { type: 'string' } } }, position: { x: 0, y: 80 } },
        {
          id: 'judge',
          type: 'evaluator',
          config: { evaluation_type: 'criteria', model: 'local:heuristic', content: '{{input.answer}}', context: '{{input.question}}', pass_threshold: 0.8, criteria: [{ name: 'accuracy', weight: 1 }] },
          position: { x: 300, y: 80 },
        },
      ],
      edges: [{ from: 'in', to: 'judge' }],
    },
  })
  expect(response.status()).toBe(201)
  await page.goto(`/workflows/${(await response.json()).id}`)
  await page.getByTestId('node-judge').click()
  const type = page.getByLabel('Evaluation type')
  const confirm = page.getByRole('dialog', { name: /^Switch to/ })

  // Criteria → rubric: everything set still applies, nothing is asked.
  await type.selectOption('rubric')
  await expect(confirm).toHaveCount(0)
  await expect(page.getByLabel('Criterion 1 name')).toHaveValue('accuracy')
  await expect(page.getByLabel('Pass threshold', { exact: true }).first()).toHaveValue('0.8')
  await expect(page.getByLabel('Judge model')).toHaveValue('local:heuristic')
  await expect(page.getByRole('group', { name: 'Rubric grades' })).toBeVisible()

  // Rubric → metric suite would remove the criteria: asked first, naming them; Esc keeps the rubric.
  await type.selectOption('metrics')
  await expect(confirm).toBeVisible()
  await expect(confirm).toContainText('Metric suite does not use this step\'s criteria')
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused()
  await page.screenshot({ path: 'test-results/e2e/type-switch-confirm.png' })
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.screenshot({ path: 'test-results/e2e/type-switch-confirm-dark.png' })
  await page.emulateMedia({ colorScheme: 'light' })
  await page.keyboard.press('Escape')
  await expect(confirm).toHaveCount(0)
  await expect(type).toHaveValue('rubric')
  await expect(page.getByLabel('Criterion 1 name')).toHaveValue('accuracy')

  // Cancel with Enter (it has focus) keeps it too.
  await type.selectOption('metrics')
  await expect(confirm).toBeVisible()
  await page.keyboard.press('Enter')
  await expect(confirm).toHaveCount(0)
  await expect(type).toHaveValue('rubric')

  // Confirmed from the keyboard: the criteria go, the threshold and the judge stay.
  await type.selectOption('metrics')
  await page.keyboard.press('Tab')
  await expect(confirm.getByRole('button', { name: 'Remove and switch' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(confirm).toHaveCount(0)
  await expect(type).toHaveValue('metrics')
  await expect(page.getByLabel('Criterion 1 name')).toHaveCount(0)
  await expect(page.getByLabel('Pass threshold', { exact: true }).first()).toHaveValue('0.8')

  // Undo gives the rubric back with its criteria.
  await page.getByRole('button', { name: 'Undo' }).click()
  await expect(type).toHaveValue('rubric')
  await expect(page.getByLabel('Criterion 1 name')).toHaveValue('accuracy')
})
