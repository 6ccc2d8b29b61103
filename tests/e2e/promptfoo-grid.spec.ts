import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'

// The app whose LLM is the fake server: it answers "echo: " and the start of the prompt.
const app = process.env.E2E_LLM_APP!

const config = `description: Greeting grid
prompts:
  - id: 'Say {{answer}}'
    label: say
  - id: 'Shout {{answer}}'
    label: shout
providers:
  - id: openai:chat:gpt-4o-mini
    label: mini
  - id: openai:chat:gpt-4o
    label: big
tests:
  - description: mentions the answer
    vars: { answer: hello }
    assert: [{ type: icontains, value: hello }]
  - description: says it plainly
    vars: { answer: hello }
    assert: [{ type: contains, value: 'echo: Say' }]
  - description: the plainest of all
    vars: { answer: hi }
    assert: [{ type: select-best, value: the plainest }]
`

test('an imported promptfoo grid reads as promptfoo\'s table: a row per test, a column per prompt · provider, each cell\'s verdict, output and failed check; select-best opens its comparison', async ({ page }) => {
  test.setTimeout(90_000)
  const name = `greeting grid ${Date.now()}`
  const imported = await page.request.post(`${app}/api/datasets/import-promptfoo`, { data: { name, config } })
  expect(imported.status()).toBe(201)
  const { dataset, workflow } = await imported.json()
  const saved = await page.request.post(`${app}/api/workflows`, { data: { ...workflow, name } })
  expect(saved.status()).toBe(201)
  const workflowId = (await saved.json()).id
  const started = await page.request.post(`${app}/api/dataset-runs`, { data: { dataset: dataset.id, target: { workflow_id: workflowId } } })
  expect(started.status()).toBe(202)

  await page.goto(`${app}/dataset-runs/${(await started.json()).id}`)
  await expect(page.getByTestId('pass-rate')).toBeVisible({ timeout: 60_000 })
  const grid = page.getByTestId('results-grid')
  await expect(grid.getByRole('columnheader')).toHaveText(['test', 'say · mini', 'shout · mini', 'say · big', 'shout · big'])
  await expect(grid.getByRole('rowheader')).toHaveText(['mentions the answer', 'says it plainly', 'the plainest of all'])
  const row = (test: string) => grid.getByTestId('grid-row').filter({ has: page.getByRole('rowheader', { name: test }) }).getByTestId('grid-cell')
  await expect(row('mentions the answer').locator('.outcome')).toHaveText(['PASS', 'PASS', 'PASS', 'PASS'])
  // Each provider's and prompt's failure stays its own, with the output and the assertion that failed.
  await expect(row('says it plainly').locator('.outcome')).toHaveText(['PASS', 'FAIL', 'PASS', 'FAIL'])
  await expect(row('says it plainly').nth(1)).toContainText('contains: Expected output to contain "echo: Say"')
  await expect(row('says it plainly').nth(1).locator('.output')).toHaveText(/^echo: Shout hello/)
  // select-best: one grader call over the four outputs picked the first; the others fail.
  await expect(row('the plainest of all').locator('.outcome')).toHaveText(['PASS', 'FAIL', 'FAIL', 'FAIL'])
  await expect(row('the plainest of all').nth(2)).toContainText('select-best: Output not selected: the plainest')

  // Only the tests that failed somewhere, by keyboard.
  await page.getByTestId('grid-only-failing').focus()
  await page.keyboard.press('Space')
  await expect(grid.getByRole('rowheader')).toHaveText(['says it plainly', 'the plainest of all'])
  await page.getByRole('heading', { name: 'Tests × prompts · providers' }).scrollIntoViewIfNeeded()
  await page.screenshot({ path: 'test-results/e2e/promptfoo-grid-1280x720.png' })
  const { violations } = await new AxeBuilder({ page }).include('[data-testid="results-grid"]').withTags(['wcag2a', 'wcag2aa']).analyze()
  expect(violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => `${v.id}: ${v.help}`)).toEqual([])

  // The comparison is a run of its own, with the four outputs as its candidates.
  await row('the plainest of all').first().getByRole('link', { name: 'Open the select-best comparison of the plainest of all' }).click()
  await expect(page.getByRole('heading', { name: /^Run / })).toBeVisible()
  await expect(page.getByText('"text": "echo: Shout hi"').first()).toBeVisible()

  // In the editor, a cell's judge shows every setting the import gave it, none hidden.
  await page.goto(`${app}/workflows/${workflowId}`)
  await page.getByTestId('node-prompt_2_big_judge').click()
  const panel = page.getByRole('complementary', { name: 'Step settings' })
  await expect(panel.getByText('promptfoo settings (1 set)')).toBeVisible()
  await expect(panel.getByLabel('Vars', { exact: true })).toHaveValue('{{input}}')
  await expect(panel.getByLabel('Assertions', { exact: true })).toHaveValue('{{input.assert}}')
})
