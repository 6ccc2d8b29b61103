import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { chooseModel } from './helpers'

// The evaluator form in the order of the task: what is judged, the judge (named, with help that
// fits it), what it judges by, the threshold; pinned outputs folded behind a button with their count.

/** This app's OpenAI and Anthropic endpoints are the fake LLM server, with keys set (serve-with-llm.ts). */
const app = process.env.E2E_LLM_APP!

async function openTemplate(page: Page, template: string) {
  await page.goto('/')
  await page.getByTestId(`template-${template}`).click()
  await expect(page.getByTestId('node-judge')).toBeVisible()
}
/** The y of each locator's top edge, in the order given. */
async function tops(locators: Locator[]) {
  return Promise.all(locators.map(async l => (await l.boundingBox())!.y))
}
/** An evaluator-only workflow on the app with provider keys, opened in the editor with its judge selected. */
async function openOnKeyedApp(page: Page, config: Record<string, unknown>) {
  const created = await page.request.post(`${app}/api/workflows`, { data: {
    name: 'Judge with keys',
    nodes: [
      { id: 'in', type: 'input', position: { x: 0, y: 0 } },
      { id: 'judge', type: 'evaluator', config: { content: '{{input.answer}}', ...config }, position: { x: 240, y: 0 } },
    ],
    edges: [{ from: 'in', to: 'judge' }],
  } })
  expect(created.status()).toBe(201)
  await page.goto(`${app}/workflows/${(await created.json()).id}`)
  await page.getByTestId('node-judge').click()
}
/** Selects in the settings whose chosen text is wider than the control, without it whole in their title (on hover). */
const cutSelects = (page: Page) => page.locator('.side select').evaluateAll(list => list.flatMap((el) => {
  const select = el as HTMLSelectElement
  if (!select.checkVisibility()) return []
  const text = select.selectedOptions[0]?.textContent?.trim() ?? ''
  const ruler = document.createElement('canvas').getContext('2d')!
  ruler.font = getComputedStyle(select).font
  // The arrow and the padding take about 28 px of the control.
  const cut = ruler.measureText(text).width > select.clientWidth - 28
  return cut && select.title !== text ? [`${select.getAttribute('aria-label')}: ${text}`] : []
}))
async function violations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).include('.side').withTags(['wcag2a', 'wcag2aa']).analyze()
  return violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')}`)
}

test('the evaluator form reads in the order of the task: what is judged, the judge, its criteria, the threshold', async ({ page }) => {
  await openTemplate(page, 'quality-gate')
  await page.getByTestId('node-judge').click()
  const side = page.getByRole('complementary', { name: 'Step settings' })
  const order = [
    side.getByLabel('Evaluation type'),
    side.getByLabel('Text to judge', { exact: true }),
    side.getByLabel('Context', { exact: true }),
    side.getByLabel('Judge model', { exact: true }),
    side.getByRole('group', { name: /^Criteria/ }),
    side.getByLabel('Pass threshold', { exact: true }).first(),
  ]
  const y = await tops(order)
  expect(y).toEqual([...y].sort((a, b) => a - b))

  // A comparison judges its candidates: they come before the judge too.
  await side.getByLabel('Evaluation type').selectOption('comparison')
  await page.getByRole('dialog', { name: /Switch to/ }).getByRole('button', { name: 'Remove and switch' }).click()
  const [candidates, judge] = await tops([side.getByRole('group', { name: /^Candidates/ }), side.getByLabel('Judge model', { exact: true })])
  expect(candidates).toBeLessThan(judge!)
  await page.screenshot({ path: test.info().outputPath('evaluator-order.png') })
})

test('the judge model names the model the server uses when none is chosen, and its help follows the model', async ({ page }) => {
  // This server has no provider key: its default judge is the offline one.
  await openTemplate(page, 'quality-gate')
  await page.getByTestId('node-judge').click()
  const side = page.getByRole('complementary', { name: 'Step settings' })
  const judge = side.getByLabel('Judge model', { exact: true })
  await judge.selectOption('')
  await expect(judge.locator('option:checked')).toHaveText('local:heuristic (server default)')
  const help = side.getByTestId('judge-help')
  await expect(help).toContainText('local:heuristic judges offline')
  await expect(judge).toHaveAttribute('aria-describedby', /\S/)
  // A typed OpenAI model: the help says which key it needs, and that this server lacks it.
  await chooseModel(page, 'Judge model', 'openai:gpt-4o')
  await expect(help).toContainText('OPENAI_API_KEY')
  await expect(help).toContainText('not set on this server')
  await expect(help).not.toContainText('judges offline')

  // A server with keys: its default judge is named, and each provider's model says its own key.
  await openOnKeyedApp(page, { evaluation_type: 'scoring' })
  const keyed = page.getByLabel('Judge model', { exact: true })
  await expect(keyed.locator('option:checked')).toHaveText('openai:gpt-4o-mini (server default)')
  const keyedHelp = page.getByTestId('judge-help')
  await expect(keyedHelp).toContainText('OPENAI_API_KEY')
  await expect(keyedHelp).toContainText('set on this server')
  await expect(keyedHelp).not.toContainText('not set')
  await expect(keyedHelp).not.toContainText('judges offline')
  await keyed.selectOption('anthropic:claude-3-5-haiku-latest')
  await expect(keyedHelp).toContainText('ANTHROPIC_API_KEY')
  await expect(keyedHelp).not.toContainText('OPENAI_API_KEY')
  await keyed.selectOption('local:heuristic')
  await expect(keyedHelp).toContainText('local:heuristic judges offline')
  await expect(keyedHelp).not.toContainText('API_KEY')
})

test('a metric suite has one model picker for all its metrics; a metric\'s own model is an override, folded', async ({ page }) => {
  await openOnKeyedApp(page, { evaluation_type: 'metrics', metrics: [{ name: 'Relevance', weight: 0.5 }, { name: 'Coverage', weight: 0.5 }] })
  const side = page.getByRole('complementary', { name: 'Step settings' })
  const pickers = side.locator('select:visible').filter({ has: page.locator('option', { hasText: 'Another model (type its name)…' }) })
  await expect(pickers).toHaveCount(1)
  const judge = side.getByLabel('Judge model', { exact: true })
  await expect(judge).toBeVisible()
  // The suite's own default judges when none is chosen, and is named.
  await expect(judge.locator('option:checked')).toHaveText(/^anthropic:claude-sonnet-4-5-20250929 \(the metric suite's default\)$/)
  await expect(side.getByTestId('judge-help')).toContainText('every metric')
  await expect(side.getByTestId('judge-help')).toContainText('ANTHROPIC_API_KEY')
  // Its long name is cut in the select at this width: whole on hover, and named in the help beneath it.
  await expect(judge).toHaveAttribute('title', 'anthropic:claude-sonnet-4-5-20250929 (the metric suite\'s default)')
  await expect(side.getByTestId('judge-help')).toContainText('anthropic:claude-sonnet-4-5-20250929 calls Anthropic')
  expect(await cutSelects(page)).toEqual([])

  // Per-metric models: behind one button, reachable by keyboard.
  const overrides = side.getByRole('button', { name: /^Models per metric/ })
  await expect(overrides).toHaveAttribute('aria-expanded', 'false')
  await overrides.focus()
  await page.keyboard.press('Enter')
  await expect(overrides).toHaveAttribute('aria-expanded', 'true')
  await expect(side.getByLabel('Metric 1 model', { exact: true })).toBeVisible()
  await side.getByLabel('Metric 1 model', { exact: true }).selectOption('local:heuristic')
  await expect(overrides).toHaveText(/Models per metric \(1 set\)/)
  await page.screenshot({ path: test.info().outputPath('metrics-overrides.png') })

  // A suite with a metric's own model opens with its overrides shown.
  await openOnKeyedApp(page, { evaluation_type: 'metrics', metrics: [{ name: 'Relevance', weight: 1, model: 'local:heuristic' }] })
  await expect(page.getByLabel('Metric 1 model', { exact: true })).toHaveValue('local:heuristic')
})

test('pinned outputs are folded behind a button with their count, opened with the mouse or the keyboard', async ({ page }) => {
  await openTemplate(page, 'quality-gate')
  await page.getByTestId('node-draft').click()
  const side = page.getByRole('complementary', { name: 'Step settings' })
  const toggle = side.getByRole('button', { name: 'Pinned outputs (2)' })
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await expect(side.getByRole('group', { name: 'Pinned outputs' })).toBeHidden()
  // The prompt comes before anything pinned is shown.
  await expect(side.getByLabel('Prompt', { exact: true })).toBeVisible()

  await toggle.focus()
  await page.keyboard.press('Enter')
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  await expect(side.getByLabel('Pinned output 2', { exact: true })).toBeVisible()
  await page.keyboard.press('Space')
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await expect(side.getByLabel('Pinned output 1', { exact: true })).toBeHidden()
  await toggle.click()
  await expect(side.getByLabel('Pinned output 1', { exact: true })).toBeVisible()

  // An evaluator without pins: the button says so, and its form starts with what it judges.
  await page.getByTestId('node-judge').click()
  await expect(side.getByRole('button', { name: 'Pinned outputs (none)' })).toHaveAttribute('aria-expanded', 'false')
  await expect(side.getByRole('group', { name: 'Pinned outputs' })).toBeHidden()
})

for (const theme of ['light', 'dark'] as const) {
  test(`${theme} theme: the evaluator form, its judge help, metric overrides and pinned outputs open have no axe findings`, async ({ page }) => {
    test.setTimeout(60_000)
    await page.emulateMedia({ colorScheme: theme })
    await openOnKeyedApp(page, { evaluation_type: 'metrics', metrics: [{ name: 'Relevance', weight: 1 }] })
    const side = page.getByRole('complementary', { name: 'Step settings' })
    await side.getByRole('button', { name: /^Pinned outputs/ }).click()
    await side.getByRole('button', { name: /^Models per metric/ }).click()
    await expect(side.getByLabel('Metric 1 model', { exact: true })).toBeVisible()
    expect(await violations(page)).toEqual([])
    expect(await cutSelects(page)).toEqual([])
    await page.locator('.side').evaluate(el => el.scrollTo(0, 0))
    await page.screenshot({ path: test.info().outputPath(`evaluator-form-${theme}.png`) })
    // The form fits the panel's width: no control runs past its edge.
    const panel = (await side.boundingBox())!
    for (const select of await side.locator('select:visible').all()) {
      const box = (await select.boundingBox())!
      expect(box.x + box.width).toBeLessThanOrEqual(panel.x + panel.width)
    }
    await page.locator('.side').evaluate(el => el.scrollTo(0, el.scrollHeight))
    await page.screenshot({ path: test.info().outputPath(`evaluator-form-${theme}-end.png`) })
  })
}
