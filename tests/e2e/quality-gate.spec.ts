import { expect, test } from '@playwright/test'
import { DEFAULT_GRADES } from '../../engine/evaluator/arithmetic'
import { chooseModel, completeReference, connect, newWorkflow, setField, zoomOutUntilVisible } from './helpers'

const WEAK = 'I am not sure. Maybe look at the documentation.'
const GOOD = 'To reset your password: 1. Open Settings and choose "Forgot password". 2. Enter your email address. 3. Follow the link in the email to set a new password.'

test('builds a quality gate from an empty canvas, configures a rubric evaluator, fails once, passes on retry, and reads the scores', async ({ page }) => {
  test.setTimeout(120_000)
  await page.goto('/')
  await newWorkflow(page)
  await expect(page.getByTestId('node-in')).toBeVisible()
  await page.getByLabel('Workflow name').fill('Support answer gate')
  await page.getByLabel('Workflow name').press('Tab')
  for (const type of ['llm', 'evaluator', 'condition', 'retry', 'output', 'output']) await page.getByTestId(`add-${type}`).click()
  await page.getByRole('button', { name: 'Auto-layout' }).click()
  await connect(page, 'in', 'llm')
  await connect(page, 'llm', 'evaluator')
  await connect(page, 'evaluator', 'condition')
  await page.getByRole('button', { name: 'Auto-layout' }).click()
  await connect(page, 'condition', 'output', 'true')
  await connect(page, 'condition', 'retry', 'false')
  await page.getByRole('button', { name: 'Auto-layout' }).click()
  await connect(page, 'retry', 'output_2', 'exhausted')
  await expect(page.locator('.vue-flow__edge')).toHaveCount(6)

  // The run input: one declared field.
  await page.getByTestId('node-in').click()
  await page.getByRole('button', { name: 'Add input field' }).click()
  await setField(page, 'Input field 1 name', 'question')
  await setField(page, 'Input field 1 default', 'How do I reset my password?')
  await setField(page, 'Input field 1 description', 'The user question')

  // The LLM step, with two pinned outputs: a weak first answer and a good second one.
  await page.getByTestId('node-llm').click()
  await chooseModel(page, 'Model', 'openai:gpt-4o-mini')
  await completeReference(page, 'Prompt', 'Answer the question: {{in', 'input.question')
  await expect(page.getByLabel('Prompt', { exact: true })).toHaveValue('Answer the question: {{input.question}}')
  // One box per attempt, each taking text as it is.
  await page.getByRole('button', { name: 'Pinned outputs (none)' }).click()
  const pins = page.getByRole('group', { name: 'Pinned outputs' })
  await pins.getByRole('button', { name: 'Add a pinned output' }).click()
  await setField(page, 'Pinned output 1', WEAK)
  await pins.getByRole('button', { name: 'Add a pinned output' }).click()
  await setField(page, 'Pinned output 2', GOOD)

  // The evaluator: a rubric with two weighted criteria, a threshold and grades.
  await page.getByTestId('node-evaluator').click()
  await page.getByLabel('Evaluation type').selectOption('rubric')
  await page.getByLabel('Judge model').selectOption('local:heuristic')
  await page.getByRole('button', { name: 'Add criterion' }).click()
  await page.getByRole('button', { name: 'Add criterion' }).click()
  await setField(page, 'Criterion 1 name', 'relevance')
  await setField(page, 'Criterion 1 description', 'Answers the question that was asked')
  await setField(page, 'Criterion 2 name', 'completeness')
  await setField(page, 'Criterion 2 description', 'Covers the steps needed')
  // Each criterion added takes an equal share: the weights sum to 1 all along.
  await expect(page.getByLabel('Criterion 2 weight')).toHaveValue('0.5')
  await expect(page.getByTestId('weight-sum')).toHaveText('1.00')
  await page.getByLabel('Criterion 1 weight').fill('0.6')
  await expect(page.getByTestId('weight-sum')).toHaveText('1.10')
  await page.getByLabel('Criterion 2 weight').fill('0.4')
  await expect(page.getByTestId('weight-sum')).toHaveText('1.00')
  await page.getByLabel('Pass threshold').fill('0.6')
  await page.getByRole('button', { name: 'Start from A/B/C/D/F' }).click()
  await expect(page.getByLabel('Grade 5', { exact: true })).toHaveValue('F')
  await expect(page.getByTestId('rubric-issues')).toHaveCount(0)
  // Connected after the LLM step, the evaluator judges its text already.
  await expect(page.getByLabel('Text to judge', { exact: true })).toHaveValue('{{steps.llm.text}}')
  await completeReference(page, 'Context', '{{', 'input.question')

  // The gate: pass on true, retry the LLM on false, fail when retries run out.
  await page.getByTestId('node-condition').click()
  await completeReference(page, 'Value', '{{steps.evaluator.pa', 'steps.evaluator.passed')
  await page.getByLabel('Operator', { exact: true }).selectOption('eq')
  await setField(page, 'Compare with', 'true')
  // The settings column narrows the canvas: zoom out, as a person would, to reach the steps beyond it.
  await zoomOutUntilVisible(page, [page.getByTestId('node-retry'), page.getByTestId('node-output'), page.getByTestId('node-output_2')])
  await page.getByTestId('node-retry').click()
  await page.getByLabel('Step to re-run', { exact: true }).selectOption('llm')
  await setField(page, 'Max attempts', '3')
  await page.getByTestId('node-output').click()
  await page.getByLabel('Verdict', { exact: true }).selectOption('pass')
  await page.getByTestId('node-output_2').click()
  await page.getByLabel('Verdict', { exact: true }).selectOption('fail')
  await expect(page.getByText('0 problems')).toBeVisible()
  await page.getByRole('button', { name: 'Auto-layout' }).click()
  await page.keyboard.press('Control+s')
  await expect(page.getByRole('status').first()).toContainText('Saved version 2')
  await page.screenshot({ path: 'test-results/e2e/quality-gate-built.png' })

  // What was saved is what the forms show.
  const saved = await (await page.request.get(`/api/workflows/${page.url().split('/').pop()}`)).json()
  const node = (id: string) => saved.definition.nodes.find((n: { id: string }) => n.id === id)
  expect(node('evaluator').config).toEqual({
    evaluation_type: 'rubric', model: 'local:heuristic', pass_threshold: 0.6, content: '{{steps.llm.text}}', context: '{{input.question}}',
    criteria: [{ name: 'relevance', description: 'Answers the question that was asked', weight: 0.6 }, { name: 'completeness', description: 'Covers the steps needed', weight: 0.4 }],
    rubric: { grades: DEFAULT_GRADES },
  })
  expect(node('llm').pinned).toEqual([WEAK, GOOD])
  expect(node('in').config).toEqual({ fields: { question: { type: 'string', default: 'How do I reset my password?', description: 'The user question' } } })
  expect(node('condition').config).toEqual({ left: '{{steps.evaluator.passed}}', op: 'eq', right: true })

  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByRole('textbox', { name: 'question' })).toHaveValue('How do I reset my password?')
  await page.getByRole('button', { name: 'Start run' }).click()
  await expect(page.getByTestId('run-verdict')).toHaveText('pass', { timeout: 15_000 })
  await expect(page.getByTestId('status-llm')).toContainText('attempt 2')

  // The retry timeline: attempt 1 failed the gate, attempt 2 passed it, with the scores.
  const timeline = page.getByTestId('retry-timeline')
  await expect(timeline.getByTestId('attempt-1')).toBeVisible()
  await expect(timeline.getByTestId('attempt-2')).toBeVisible()
  await expect(timeline.getByRole('img')).toHaveAttribute('aria-label', /evaluator: 0\.08 → 0\.97/)

  const judge = page.getByTestId('inspect-evaluator')
  await expect(judge).toContainText('2 attempts')
  await judge.getByText('attempt 1: succeeded').click()
  const first = judge.getByTestId('evaluator-result').first()
  await expect(first).toContainText('failed')
  await expect(first).toContainText('grade F')
  // A step run twice opens at its final attempt.
  await expect(judge.getByText('attempt 2 (final): succeeded')).toBeVisible()
  const second = judge.getByTestId('evaluator-result').last()
  await expect(second).toContainText('passed')
  await expect(second).toContainText('grade A')
  await expect(second.getByRole('meter', { name: 'Overall score' })).toHaveAttribute('aria-valuenow', '0.97')
  await expect(second).toContainText('relevance')
  await expect(second).toContainText('completeness')
  await page.screenshot({ path: 'test-results/e2e/quality-gate-run.png', fullPage: true })
})
