import { expect, test } from '@playwright/test'
import { connect, newWorkflow, setField } from './helpers'

test('the evaluator form: Try it, the metric suite in TOML, scorer presets; nodes copied into another workflow', async ({ page }) => {
  test.setTimeout(60_000)
  await page.goto('/')
  await newWorkflow(page)
  await page.getByTestId('add-evaluator').click()
  await page.getByTestId('node-evaluator').click()

  // Try it: the offline judge scores pasted text with the form's settings.
  await page.getByLabel('Judge model').selectOption('local:heuristic')
  const tryIt = page.getByTestId('try-it')
  await tryIt.getByText('Try it').click()
  await tryIt.getByLabel('Try content').fill('To reset your password, open Settings, choose "Forgot password" and follow the emailed link.')
  await tryIt.getByLabel('Try context').fill('How do I reset my password?')
  await tryIt.getByRole('button', { name: 'Evaluate' }).click()
  await expect(tryIt.getByTestId('evaluator-result')).toContainText(/passed|failed/)
  await expect(tryIt.getByRole('meter', { name: 'Overall score' })).toHaveAttribute('aria-valuenow', /^(0(\.\d+)?|1)$/)

  // The metric suite: the default three, exported as TOML; a pasted suite replaces it.
  await page.getByLabel('Evaluation type').selectOption('metrics')
  const suite = page.getByTestId('metric-suite')
  await suite.getByRole('button', { name: 'Use the default three' }).click()
  await suite.getByText('TOML import / export').click()
  await expect(suite.getByTestId('metric-suite-toml')).toHaveValue(/\[\[metrics\]\]\nname = "ClarityCoherence"\nweight = 0\.333/)
  await suite.getByLabel('TOML to import').fill('[llm_default]\nmodel = "local:heuristic"\n\n[[metrics]]\nname = "Relevance"\nweight = 0.7\n\n[[metrics]]\nname = "Coverage"\nweight = 0.3\n')
  await suite.getByRole('button', { name: 'Import pasted TOML' }).click()
  await expect(suite.getByRole('status')).toHaveText('Imported 2 metrics from the pasted TOML.')
  await expect(suite.getByLabel('Metric 1', { exact: true })).toHaveValue('Relevance')
  await expect(suite.getByLabel('Metric 2', { exact: true })).toHaveValue('Coverage')
  await expect(suite.getByLabel('Default metric model')).toHaveValue('local:heuristic')
  await suite.getByLabel('TOML to import').fill('[[metrics]\nname = 1')
  await suite.getByRole('button', { name: 'Import pasted TOML' }).click()
  await expect(suite.getByRole('status')).toContainText('the pasted TOML is not valid TOML')

  // Scorers: a preset by name, then its list copied in for editing.
  await page.getByLabel('Evaluation type').selectOption('scorers')
  // The metric suite and its judge do not apply to scorers: removing them is confirmed first.
  await page.getByRole('dialog', { name: 'Switch to Scorers?' }).getByRole('button', { name: 'Remove and switch' }).click()
  const scorers = page.getByTestId('scorer-list')
  await scorers.getByLabel('Scorer preset').selectOption('strict')
  await expect(scorers).toContainText('Anti-hallucination')
  await scorers.getByRole('button', { name: 'Customize this preset' }).click()
  await expect(scorers.getByLabel(/^Scorer \d+ type$/)).toHaveCount(4)
  await expect(scorers.getByLabel('Scorer 4 type')).toHaveValue('anti-hallucination')
  await scorers.getByLabel('Scorer 4 options').fill('not json')
  await scorers.getByLabel('Scorer 4 options').press('Tab')
  await expect(scorers).toContainText('options: ')
  await page.screenshot({ path: 'test-results/e2e/evaluator-form.png', fullPage: true })

  // Copy the evaluator, save, and paste it into another workflow.
  await page.getByTestId('node-evaluator').click()
  await page.keyboard.press('Control+c')
  await page.keyboard.press('Control+s')
  await expect(page.getByRole('status').first()).toContainText('Saved version 2')
  await page.getByRole('link', { name: '← Workflows' }).click()
  await page.getByTestId('template-ab-test').click()
  await expect(page.getByTestId('node-judge')).toBeVisible()
  await page.getByTestId('node-judge').click()
  await page.keyboard.press('Control+v')
  await expect(page.getByTestId('node-evaluator')).toBeVisible()
  await page.getByTestId('node-evaluator').click()
  await expect(page.getByLabel('Evaluation type')).toHaveValue('scorers')
})

test('an evaluator without content judges the step leading into it, and is warned when it cannot tell which; the rubric\'s default bands', async ({ page }) => {
  test.setTimeout(60_000)
  await page.goto('/')
  await newWorkflow(page)
  for (const type of ['llm', 'llm', 'evaluator']) await page.getByTestId(`add-${type}`).click()
  await page.getByRole('button', { name: 'Auto-layout' }).click()
  await page.getByTestId('node-evaluator').click()
  const warnings = page.getByTestId('panel-warnings-evaluator')
  await expect(warnings).toContainText('content: no content is set and no step leads into this one: set content to the text to judge')

  // One step leading in: it fills the content; no warning, and an emptied content field says what it judges.
  await connect(page, 'llm', 'evaluator')
  await expect(page.getByLabel('Text to judge', { exact: true })).toHaveValue('{{steps.llm.text}}')
  await setField(page, 'Text to judge', '')
  await expect(warnings).toHaveCount(0)
  await expect(page.getByTestId('content-from-upstream')).toHaveText('Empty: judges the text of llm, the step leading into this one.')

  // Two: it cannot tell which.
  await connect(page, 'llm_2', 'evaluator')
  await expect(warnings).toContainText('no content is set and 2 steps lead into this one (llm, llm_2): set content to the text to judge, e.g. {{steps.llm.text}}')
  await expect(page.getByTestId('content-from-upstream')).toHaveCount(0)
  await page.screenshot({ path: 'test-results/e2e/evaluator-content-warning.png' })
  await setField(page, 'Text to judge', '{{steps.llm_2.text}}')
  await expect(warnings).toHaveCount(0)

  // The rubric: with no grades the default bands are shown; the starter is the default A/B/C/D/F.
  await page.getByLabel('Evaluation type').selectOption('rubric')
  const defaults = page.getByTestId('rubric-defaults')
  await expect(defaults).toContainText('No grades listed: the default bands are used.')
  await expect(defaults.getByRole('listitem')).toHaveText([/^A 0\.90–1\.00 /, /^B 0\.80–0\.90 /, /^C 0\.70–0\.80 /, /^D 0\.60–0\.70 /, /^F 0\.00–0\.60 /])
  await page.screenshot({ path: 'test-results/e2e/evaluator-rubric-defaults.png' })
  await page.getByRole('button', { name: 'Start from A/B/C/D/F' }).click()
  await expect(defaults).toHaveCount(0)
  for (const [i, grade] of ['A', 'B', 'C', 'D', 'F'].entries()) await expect(page.getByLabel(`Grade ${i + 1}`, { exact: true })).toHaveValue(grade)
  await expect(page.getByTestId('rubric-issues')).toHaveCount(0)

  // The metric suite without a judge model uses its own default, and says which.
  await page.getByLabel('Evaluation type').selectOption('metrics')
  await page.getByRole('dialog', { name: 'Switch to Metric suite?' }).getByRole('button', { name: 'Remove and switch' }).click()
  await expect(page.getByLabel('Judge model').locator('option[value=""]')).toHaveText('anthropic:claude-sonnet-4-5-20250929 (the metric suite\'s default)')
})
