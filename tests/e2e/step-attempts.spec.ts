import { expect, test, type Page } from '@playwright/test'

/** Opens the quality gate template and runs it offline: its draft passes on the second attempt. */
async function runQualityGate(page: Page) {
  await page.goto('/')
  await page.getByTestId('template-quality-gate').click()
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await page.getByRole('button', { name: 'Start run' }).click()
  await expect(page.getByTestId('run-verdict')).toHaveText('pass', { timeout: 15_000 })
}

test('a step that ran in an earlier attempt is not drawn as skipped: its card says what each attempt did', async ({ page }) => {
  test.setTimeout(60_000)
  await runQualityGate(page)
  // The retry sent the run back in attempt 1 and was not reached in attempt 2.
  const retry = page.getByTestId('node-again')
  const status = page.getByTestId('status-again')
  await expect(status).toHaveText('retried · attempt 1')
  expect(await retry.evaluate(el => getComputedStyle(el).borderTopStyle)).toBe('solid')
  const dots = page.getByTestId('attempts-again').locator('[data-attempt]')
  await expect(dots).toHaveCount(2)
  await expect(dots.nth(0)).toHaveAttribute('title', 'Attempt 1: retried, ran draft again')
  await expect(dots.nth(1)).toHaveAttribute('title', /^Attempt 2: not reached/)
  // The draft ran twice: both attempts are on its card.
  await expect(page.getByTestId('status-draft')).toHaveText('succeeded · attempt 2')
  await expect(page.getByTestId('attempts-draft').locator('[data-attempt]')).toHaveCount(2)
  // A step no attempt reached still reads as skipped.
  await expect(page.getByTestId('status-ko')).toContainText('skipped')
})

test('after a run, a step\'s settings stay in view at 1280×720: its last run is one line until opened', async ({ page }) => {
  test.setTimeout(60_000)
  await page.setViewportSize({ width: 1280, height: 720 })
  await runQualityGate(page)
  await page.getByTestId('node-draft').click()
  const side = page.getByRole('complementary', { name: 'Step settings' })
  await expect(side.getByTestId('step-run-data')).toContainText('Last run')
  await expect(side.getByLabel('Model', { exact: true })).toBeInViewport({ ratio: 1 })
  await expect(side.getByLabel('Prompt', { exact: true })).toBeInViewport()
  // Opened, the run's output is there.
  await side.getByText('Last run', { exact: true }).click()
  await expect(side.getByTestId('run-data-output')).toBeVisible()
  await expect(side.getByTestId('run-data-output')).toContainText('To reset your password')
})

test('the draft\'s prompt is offered the judge\'s feedback that comes back through the retry loop', async ({ page }) => {
  test.setTimeout(60_000)
  await page.goto('/')
  await page.getByTestId('template-quality-gate').click()
  await page.getByTestId('node-draft').click()
  const prompt = page.getByLabel('Prompt', { exact: true })
  await prompt.click()
  await prompt.press('Control+End')
  await prompt.pressSequentially(' {{steps.judge.fe')
  const list = page.getByRole('listbox', { name: 'References for Prompt' })
  await expect(list.getByRole('option', { name: /^\{\{steps\.judge\.feedback\}\}/ })).toBeVisible()
  await prompt.press('Escape')
})

test('steps carry names: the card\'s title, the panel\'s header, and the retry\'s loop names its target', async ({ page }) => {
  test.setTimeout(60_000)
  await page.goto('/')
  await page.getByTestId('template-quality-gate').click()
  await expect(page.getByTestId('label-draft')).toHaveText('Draft')
  await expect(page.getByTestId('label-check')).toHaveText('Passed?')
  await expect(page.getByTestId('node-draft')).toContainText('draft')
  await expect(page.getByTestId('summary-again')).toHaveText('retry → Draft · ≤ 3 runs')
  // The loop leaves the retry beside that line, not from its "exhausted" branch.
  const anchor = page.locator('.vue-flow__node[data-id="again"] [data-handleid="loop"]')
  const exhausted = page.locator('.vue-flow__node[data-id="again"] [data-handleid="exhausted"]')
  const [a, e] = [(await anchor.boundingBox())!, (await exhausted.boundingBox())!]
  expect(a.y + a.height).toBeLessThan(e.y)
  await page.screenshot({ path: 'test-results/e2e/step-names-quality-gate.png' })
  await page.getByTestId('node-draft').click()
  const side = page.getByRole('complementary', { name: 'Step settings' })
  await expect(side.getByRole('heading', { level: 2 })).toHaveText('Draft · LLM draft')
  // Renamed, the card and the retry's caption follow.
  await side.getByLabel('Label', { exact: true }).fill('First answer')
  await side.getByLabel('Label', { exact: true }).press('Tab')
  await expect(page.getByTestId('label-draft')).toHaveText('First answer')
  await expect(page.getByTestId('summary-again')).toHaveText('retry → First answer · ≤ 3 runs')
  // A new step is named after what it does.
  await page.getByTestId('add-evaluator').click()
  await expect(page.getByTestId('label-evaluator')).toHaveText('Judge 2')
})

test('pinned outputs come first in an LLM step\'s form, one box each, several lines without JSON; a run\'s output can be pinned', async ({ page }) => {
  test.setTimeout(60_000)
  await runQualityGate(page)
  await page.getByTestId('node-draft').click()
  const side = page.getByRole('complementary', { name: 'Step settings' })
  // Folded behind a button that counts them, above the model.
  const toggle = side.getByRole('button', { name: 'Pinned outputs (2)' })
  await expect(toggle).toBeInViewport()
  const [toggleBox, modelTop] = [(await toggle.boundingBox())!, (await side.getByLabel('Model', { exact: true }).boundingBox())!]
  expect(toggleBox.y).toBeLessThan(modelTop.y)
  await toggle.click()
  const pins = side.getByRole('group', { name: 'Pinned outputs' })
  await expect(pins).toBeInViewport()
  await expect(side.getByLabel('Pinned output 1', { exact: true })).toHaveValue('I am not sure. Maybe look at the documentation.')
  // Above the model: the first thing to set for a workflow without a key.
  const [pinBox, modelBox] = [(await pins.boundingBox())!, (await side.getByLabel('Model', { exact: true }).boundingBox())!]
  expect(pinBox.y).toBeLessThan(modelBox.y)
  const multiline = 'Steps:\n1. Open Settings.\n2. Choose "Forgot password".'
  await side.getByLabel('Pinned output 1', { exact: true }).fill(multiline)
  await side.getByLabel('Pinned output 1', { exact: true }).press('Tab')
  await pins.getByRole('button', { name: 'Remove pinned output 2' }).click()
  await expect(pins.getByRole('textbox')).toHaveCount(1)
  await page.keyboard.press('Control+s')
  await expect(page.getByRole('status').first()).toContainText('Saved version')
  const saved = await (await page.request.get(`/api/workflows/${page.url().split('/').pop()}`)).json() as { definition: { nodes: Array<{ id: string, pinned?: unknown[] }> } }
  expect(saved.definition.nodes.find(n => n.id === 'draft')!.pinned).toEqual([multiline])
  await page.screenshot({ path: 'test-results/e2e/step-pins-llm.png' })

  // The judge ran for real: its output, pinned from the last run, becomes its pinned output.
  await page.getByTestId('node-judge').click()
  await side.getByText('Last run', { exact: true }).click()
  await side.getByTestId('pin-output').click()
  await expect(side.getByTestId('pin-output')).toHaveText('Pinned')
  await side.getByRole('button', { name: 'Pinned outputs (1)' }).click()
  await expect(side.getByLabel('Pinned output 1 (JSON)', { exact: true })).toHaveValue(/"overall_score"/)
  await expect(page.getByTestId('node-judge').getByRole('img', { name: 'pinned outputs' })).toBeVisible()
})

for (const scheme of ['light', 'dark'] as const) {
  test(`in the ${scheme} theme, each template's steps are titled by name, and a run's attempts are told apart`, async ({ page }) => {
    test.setTimeout(90_000)
    await page.emulateMedia({ colorScheme: scheme })
    for (const template of ['quality-gate', 'feedback-loop', 'ab-test']) {
      await page.goto('/')
      await page.getByTestId(`template-${template}`).click()
      await expect(page.locator('[data-testid^="label-"]').first()).toBeVisible()
      const titles = await page.locator('[data-testid^="label-"]').allTextContents()
      expect(titles.length, template).toBe(await page.locator('[data-testid^="node-"]').count())
      await page.screenshot({ path: `test-results/e2e/step-names-${template}-${scheme}.png` })
    }
    await runQualityGate(page)
    // A filled dot where the step ran, a hollow one where it was not reached, in either theme.
    const [ran, notReached] = [page.getByTestId('attempts-again').locator('[data-attempt="1"]'), page.getByTestId('attempts-again').locator('[data-attempt="2"]')]
    const fill = (l: typeof ran) => l.evaluate(el => getComputedStyle(el).backgroundColor)
    expect(await fill(ran)).not.toBe(await fill(notReached))
    expect(await fill(notReached)).toBe('rgba(0, 0, 0, 0)')
    await page.screenshot({ path: `test-results/e2e/step-attempts-run-${scheme}.png` })
    await page.getByTestId('node-draft').click()
    await page.screenshot({ path: `test-results/e2e/step-pins-llm-${scheme}.png` })
  })
}

test('the retry timeline puts each step in the attempt it belongs to: the retry that ran is not called skipped there', async ({ page }) => {
  test.setTimeout(60_000)
  await runQualityGate(page)
  const timeline = page.getByTestId('retry-timeline')
  const first = timeline.getByTestId('attempt-1')
  const second = timeline.getByTestId('attempt-2')
  // Attempt 1: the retry ran and sent the run back; nothing in it says the retry was skipped.
  await expect(first.locator('li', { has: page.locator('code', { hasText: /^again$/ }) })).toContainText('runs draft again')
  await expect(first).not.toContainText('"again" was skipped')
  await expect(first.locator('code', { hasText: /^ko$/ })).toHaveCount(0)
  // Attempt 2: the judge passed, the retry was not reached, so neither was the fail output.
  const ko = second.locator('li', { has: page.locator('code', { hasText: /^ko$/ }) })
  await expect(ko).toContainText('skipped')
  await expect(ko).toContainText('"again" was skipped')
  await timeline.scrollIntoViewIfNeeded()
  await page.screenshot({ path: 'test-results/ub/retry-timeline.png' })
})
