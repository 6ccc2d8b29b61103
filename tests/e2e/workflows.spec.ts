import { readFileSync, writeFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'

const gate = {
  name: 'Ledger gate',
  nodes: [
    { id: 'in', type: 'input', position: { x: 0, y: 0 } },
    { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Summarise the ledger' }, pinned: ['The ledger balances.'], position: { x: 220, y: 0 } },
    { id: 'judge', type: 'evaluator', position: { x: 440, y: 0 }, config: {
      evaluation_type: 'criteria', model: 'local:heuristic', content: '{{steps.draft.text}}',
      criteria: [{ name: 'accuracy', weight: 0.5 }, { name: 'clarity', weight: 0.5 }],
    } },
  ],
  edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }],
}

test('the workflow list: the template gallery, duplicate, export, import (and a refused file), delete with confirmation', async ({ page, request }, testInfo) => {
  expect((await request.post('/api/workflows', { data: gate })).status()).toBe(201)
  await page.goto('/')
  const gallery = page.getByRole('list').filter({ has: page.getByRole('button', { name: 'Use this template' }) })
  await expect(gallery.getByRole('listitem')).toHaveCount(4)
  await expect(gallery.getByRole('strong')).toHaveText(['Quality gate', 'Feedback loop', 'A/B test', 'Gate your API'])

  await page.getByRole('button', { name: 'Duplicate Ledger gate', exact: true }).click()
  await expect(page.getByRole('link', { name: 'Ledger gate (copy)', exact: true })).toBeVisible()

  // Export: the workflow file, as import and `judgeflow run` take it.
  const downloading = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Export Ledger gate', exact: true }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toBe('Ledger-gate.json')
  const exported = JSON.parse(readFileSync((await download.path())!, 'utf8'))
  expect(exported.name).toBe('Ledger gate')
  expect(exported.nodes.map((n: { id: string }) => n.id)).toEqual(['in', 'draft', 'judge'])
  expect(exported.nodes[1].pinned).toEqual(['The ledger balances.'])

  // A file that is not a workflow is refused with a message that names the field; nothing is created.
  const broken = testInfo.outputPath('broken.json')
  writeFileSync(broken, JSON.stringify({ ...exported, name: 'Broken', nodes: [...exported.nodes, { type: 'output' }] }))
  await page.getByLabel('Import a workflow file').setInputFiles(broken)
  await expect(page.getByRole('status').first()).toHaveText('Invalid body: nodes[3].id: Invalid input: expected string, received undefined')
  await expect(page.getByRole('link', { name: 'Broken', exact: true })).toHaveCount(0)
  await expect(page).toHaveURL(/\/$/)

  const file = testInfo.outputPath('imported.json')
  writeFileSync(file, JSON.stringify({ ...exported, name: 'Ledger gate imported' }))
  await page.getByLabel('Import a workflow file').setInputFiles(file)
  await expect(page.getByLabel('Workflow name')).toHaveValue('Ledger gate imported')
  await expect(page.getByTestId('node-judge')).toBeVisible()
  await page.getByRole('link', { name: '← Workflows' }).click()

  // Delete asks first: declining keeps the workflow, accepting removes it.
  const copy = page.getByRole('link', { name: 'Ledger gate (copy)', exact: true })
  const questions: string[] = []
  page.once('dialog', (dialog) => { questions.push(dialog.message()); void dialog.dismiss() })
  await page.getByRole('button', { name: 'Delete Ledger gate (copy)', exact: true }).click()
  await expect.poll(() => questions).toEqual(['Delete "Ledger gate (copy)" and its runs?'])
  await expect(copy).toBeVisible()
  page.once('dialog', dialog => void dialog.accept())
  await page.getByRole('button', { name: 'Delete Ledger gate (copy)', exact: true }).click()
  await expect(copy).toHaveCount(0)
  await expect(page.getByRole('link', { name: 'Ledger gate', exact: true })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Ledger gate imported', exact: true })).toBeVisible()
  await page.screenshot({ path: 'test-results/e2e/workflow-list.png', fullPage: true })
})

test('the evaluator form normalizes weights and flags rubric gaps and overlaps; leaving with unsaved changes asks first', async ({ page, request }) => {
  const created = await request.post('/api/workflows', { data: { ...gate, name: 'Weights gate' } })
  const { id } = await created.json()
  await page.goto(`/workflows/${id}`)
  await page.getByTestId('node-judge').click()

  await page.getByLabel('Criterion 1 weight').fill('0.2')
  await page.getByLabel('Criterion 2 weight').fill('0.6')
  await expect(page.getByTestId('weight-sum')).toHaveText('0.80')
  await expect(page.getByText('(must be 1.00)')).toBeVisible()
  await page.getByRole('button', { name: 'Normalize' }).click()
  await expect(page.getByLabel('Criterion 1 weight')).toHaveValue('0.25')
  await expect(page.getByLabel('Criterion 2 weight')).toHaveValue('0.75')
  await expect(page.getByTestId('weight-sum')).toHaveText('1.00')
  await expect(page.getByText('(must be 1.00)')).toHaveCount(0)

  await page.getByLabel('Evaluation type').selectOption('rubric')
  await page.getByRole('button', { name: 'Start from A/B/C/D/F' }).click()
  await expect(page.getByTestId('rubric-issues')).toHaveCount(0)
  // F from 0.1 leaves scores below it without a grade; C at B's 0.8 makes two bands overlap.
  await page.getByLabel('Grade 5 min score').fill('0.1')
  await page.getByLabel('Grade 5 min score').press('Tab')
  await page.getByLabel('Grade 3 min score').fill('0.8')
  await page.getByLabel('Grade 3 min score').press('Tab')
  const issues = page.getByTestId('rubric-issues')
  await expect(issues).toContainText('Two grades share a min score: their bands overlap.')
  await expect(issues).toContainText('Scores below 0.1 get no grade: give the lowest grade min score 0.')
  await page.screenshot({ path: 'test-results/e2e/evaluator-weights-rubric.png' })

  // Unsaved changes: leaving asks; declining stays in the editor with the changes.
  const questions: string[] = []
  page.once('dialog', (dialog) => { questions.push(dialog.message()); void dialog.dismiss() })
  await page.getByRole('link', { name: '← Workflows' }).click()
  await expect.poll(() => questions).toEqual(['Leave without saving your changes?'])
  await expect(page).toHaveURL(new RegExp(`/workflows/${id}$`))
  await expect(page.getByTestId('weight-sum')).toHaveText('1.00')
  page.once('dialog', dialog => void dialog.accept())
  await page.getByRole('link', { name: '← Workflows' }).click()
  await expect(page.getByRole('heading', { name: 'Workflows' })).toBeVisible()
  // Nothing was saved: the stored version is still the first, with its weights.
  const stored = await (await request.get(`/api/workflows/${id}`)).json()
  expect(stored.version).toBe(1)
  expect(stored.definition.nodes[2].config.criteria.map((c: { weight: number }) => c.weight)).toEqual([0.5, 0.5])
})
