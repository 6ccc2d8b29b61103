import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'

const qualityGate = JSON.parse(readFileSync(new URL('../../examples/quality-gate.json', import.meta.url), 'utf8'))

/** Serious and critical WCAG A/AA findings, with where they are. */
async function violations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze()
  return violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')}`)
}

const text = (key: string, value: string) => ({ key, value: { stringValue: value } })
const messages = (role: string, content: string) => JSON.stringify([{ role, parts: [{ type: 'text', content }] }])

/** GenAI chat spans from `service`, as an OTLP/HTTP JSON export request, posted to /v1/traces. */
async function sendSpans(request: APIRequestContext, service: string, questions: string[]) {
  const now = BigInt(Date.now()) * 1_000_000n
  const spans = questions.map((question, i) => ({
    traceId: randomBytes(16).toString('hex'), spanId: randomBytes(8).toString('hex'), name: 'chat gpt-4o', kind: 3,
    startTimeUnixNano: String(now + BigInt(i)), endTimeUnixNano: String(now + BigInt(i) + 5_000_000n),
    attributes: [
      text('gen_ai.operation.name', 'chat'), text('gen_ai.request.model', 'gpt-4o'),
      text('gen_ai.input.messages', messages('user', question)),
      text('gen_ai.output.messages', messages('assistant', 'Refunds reach your card within 5 business days of the return being received.')),
    ],
  }))
  const response = await request.post('/v1/traces', {
    data: { resourceSpans: [{ resource: { attributes: [text('service.name', service)] }, scopeSpans: [{ scope: { name: 'online-spec' }, spans }] }] },
  })
  expect(response.status()).toBe(200)
}

async function screenshots(page: Page, theme: string) {
  await page.screenshot({ path: `test-results/e2e/online-${theme}-1280x720.png` })
  await page.screenshot({ path: `test-results/e2e/online-${theme}-full.png`, fullPage: true })
}

test('creates rules from a saved evaluator step, pauses one with the keyboard, and shows every decision with its reason', async ({ page }) => {
  test.setTimeout(120_000)
  const workflowName = `Support gate ${Date.now()}`
  const created = await page.request.post('/api/workflows', { data: { ...qualityGate, name: workflowName } })
  expect(created.status()).toBe(201)
  // Another saved workflow with a long name: the workflow select must still keep to its column.
  const long = await page.request.post('/api/workflows', { data: { ...qualityGate, name: `Support gate for the billing, returns and delivery questions of the help centre ${Date.now()}` } })
  expect(long.status()).toBe(201)

  await page.goto('/')
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Online' }).click()
  await expect(page.getByRole('heading', { name: 'Online', level: 1 })).toBeVisible()
  // No spans yet: the page says where to send them.
  const help = page.getByTestId('send-spans-help')
  await expect(help).toContainText('/v1/traces')
  await expect(help).toContainText('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=http://127.0.0.1:')
  await page.screenshot({ path: 'test-results/e2e/online-empty-light-1280x720.png', fullPage: true })

  // With the mouse: a sample rate out of range is refused beside its field, and the field takes the focus.
  const form = page.getByRole('form', { name: 'New online rule' })
  await form.getByLabel('Name', { exact: true }).fill('helpful answers')
  await form.getByLabel('Workflow', { exact: true }).selectOption({ label: workflowName })
  await expect(form.getByLabel('Evaluator step', { exact: true })).toHaveValue('judge')
  // A long workflow name stays in its column: the workflow's select ends before the step's begins.
  const [chosen, step] = [(await form.getByLabel('Workflow', { exact: true }).boundingBox())!, (await form.getByLabel('Evaluator step', { exact: true }).boundingBox())!]
  expect(chosen.x + chosen.width).toBeLessThan(step.x)
  await form.getByLabel('Sample rate (0–1)', { exact: true }).fill('2')
  await form.getByLabel('Service name', { exact: true }).fill('support-bot')
  await form.getByLabel('Budget a day (US$)', { exact: true }).fill('5')
  await form.getByRole('button', { name: 'Create rule' }).click()
  await expect(page.getByTestId('error-sample_rate')).toHaveText('must be from 0 to 1')
  await expect(form.getByLabel('Sample rate (0–1)', { exact: true })).toBeFocused()
  await expect(form.getByLabel('Sample rate (0–1)', { exact: true })).toHaveAttribute('aria-invalid', 'true')
  await form.getByLabel('Sample rate (0–1)', { exact: true }).fill('1')
  await form.getByRole('button', { name: 'Create rule' }).click()
  const helpful = page.getByTestId('rule-helpful answers')
  await expect(helpful).toContainText(`${workflowName} › judge`)
  await expect(helpful).toContainText('service support-bot')
  await expect(helpful).toContainText('100% · 60/min · $5/day')

  // With the keyboard: a second rule that samples nothing.
  await form.getByLabel('Name', { exact: true }).focus()
  await page.keyboard.type('nothing sampled')
  await page.keyboard.press('Tab')
  await expect(form.getByLabel('Workflow', { exact: true })).toBeFocused()
  await page.keyboard.type(workflowName)
  await expect(form.getByLabel('Workflow', { exact: true })).toHaveValue((await created.json()).id)
  await expect(form.getByLabel('Evaluator step', { exact: true })).toHaveValue('judge')
  await form.getByLabel('Sample rate (0–1)', { exact: true }).focus()
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.type('0')
  await page.keyboard.press('Enter')
  const nothing = page.getByTestId('rule-nothing sampled')
  await expect(nothing).toContainText('every GenAI span')
  await expect(nothing.getByRole('switch')).toHaveAttribute('aria-checked', 'true')

  await sendSpans(page.request, 'support-bot', ['How long do refunds take?', 'Can I return a gift?', 'Where is my parcel?'])
  await sendSpans(page.request, 'billing-bot', ['Why was I charged twice?'])
  const feed = page.getByTestId('decision-feed')
  // Each decision says why: the filter's refusal, the sample, and the score with its run.
  await expect(feed.locator('[data-status=filtered]')).toContainText('service.name is "billing-bot", not "support-bot"')
  await expect(feed.locator('[data-status=sampled_out]')).toHaveCount(4)
  await expect(feed.locator('[data-status=sampled_out]').first()).toContainText('not in the 0% sample')
  await expect(feed.locator('[data-status=scored]')).toHaveCount(3, { timeout: 30_000 })
  const scored = feed.locator('[data-status=scored]').first()
  await expect(scored.getByTestId('decision-reason')).toContainText(/(pass|fail) · score \d\.\d\d/)
  await expect(scored).toContainText('Refunds reach your card within 5 business days')
  await expect(scored.getByRole('link', { name: 'open run' })).toHaveAttribute('href', /^\/runs\/[\w-]+$/)
  await expect(helpful).toContainText('filtered 1 · scored 3')
  await expect(nothing).toContainText('sampled_out 4')
  await expect(page.getByTestId('chart-quality')).toHaveAttribute('aria-label', /Pass rate and mean score over time: .*\(3 spans\)/)
  // Every score is charted: no note that older ones were left out.
  await expect(page.getByTestId('charts-cut')).toBeHidden()

  // Paused with the keyboard: the switch takes Space, and a paused rule decides nothing of what arrives.
  await nothing.getByRole('switch').focus()
  await page.keyboard.press('Space')
  await expect(nothing.getByRole('switch')).toHaveAttribute('aria-checked', 'false')
  await expect(nothing).toContainText('paused')
  await sendSpans(page.request, 'support-bot', ['Do you ship abroad?'])
  await expect(feed.locator('[data-status=scored]')).toHaveCount(4, { timeout: 30_000 })
  await expect(feed.locator('[data-status=sampled_out]')).toHaveCount(4)

  // The feed narrowed to one rule and status; the chart then sets the cost against that rule's budget.
  await page.getByTestId('feed-rule').selectOption({ label: 'helpful answers' })
  await page.getByTestId('feed-status').selectOption('filtered')
  await expect(feed.locator('li')).toHaveCount(1)
  await expect(page.getByTestId('chart-cost')).toHaveAttribute('aria-label', /^Judging cost per day against a budget of \$5/)
  await page.getByTestId('feed-status').selectOption('')

  expect(await violations(page)).toEqual([])
  await screenshots(page, 'light')
  await page.emulateMedia({ colorScheme: 'dark' })
  await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(15, 18, 23)')
  expect(await violations(page)).toEqual([])
  await screenshots(page, 'dark')
  await page.emulateMedia({ colorScheme: 'light' })

  // Edit: the form takes the rule's fields; a bad limit is named beside its field.
  await helpful.getByRole('button', { name: 'Edit helpful answers' }).click()
  const edit = page.getByRole('form', { name: 'Edit rule helpful answers' })
  await expect(edit.getByLabel('Service name', { exact: true })).toHaveValue('support-bot')
  await edit.getByLabel('Scorings a minute at most', { exact: true }).fill('0')
  await edit.getByRole('button', { name: 'Save rule' }).click()
  await expect(page.getByTestId('error-max_per_minute')).toHaveText('must be at least 1')
  await edit.getByLabel('Scorings a minute at most', { exact: true }).fill('')
  await edit.getByRole('button', { name: 'Save rule' }).click()
  await expect(helpful).toContainText('100% · no rate limit · $5/day')

  // Delete asks first; Cancel keeps the rule, Delete rule removes it.
  await nothing.getByRole('button', { name: 'Delete nothing sampled' }).click()
  const confirm = page.getByRole('dialog', { name: 'Delete nothing sampled?' })
  await expect(confirm).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(confirm).toBeHidden()
  await expect(nothing).toBeVisible()
  await nothing.getByRole('button', { name: 'Delete nothing sampled' }).click()
  await confirm.getByRole('button', { name: 'Delete rule' }).click()
  await expect(nothing).toHaveCount(0)
  await expect(feed.locator('[data-status=sampled_out]')).toHaveCount(0)
  const rules = await (await page.request.get('/api/online/rules')).json() as Array<{ name: string, max_per_minute: number | null }>
  expect(rules.map(r => [r.name, r.max_per_minute])).toEqual([['helpful answers', null]])

  // Past a page of decisions, older ones are shown on asking: 50 more spans filtered out make 55.
  await sendSpans(page.request, 'other-bot', Array.from({ length: 50 }, (_, i) => `Question ${i}`))
  await expect(feed.locator('li')).toHaveCount(50)
  await page.getByRole('button', { name: 'Show older decisions' }).click()
  await expect(feed.locator('li')).toHaveCount(55)
  await expect(page.getByRole('button', { name: 'Show older decisions' })).toHaveCount(0)
  // Live updates stop on asking: a span sent meanwhile shows once they resume.
  const live = page.getByRole('button', { name: 'Live updates (every 3 s)' })
  await live.press('Enter')
  await expect(live).toHaveAttribute('aria-pressed', 'false')
  await sendSpans(page.request, 'other-bot', ['One more'])
  await page.waitForTimeout(3_500)
  await expect(feed.locator('li')).toHaveCount(55)
  await live.click()
  await expect(live).toHaveAttribute('aria-pressed', 'true')
  await expect(feed.locator('li')).toHaveCount(56)
})
