import { expect, test } from '@playwright/test'

// This app's OpenAI and Anthropic endpoints are the fake LLM server, with keys in its environment
// (tests/e2e/serve-with-llm.ts); the fake answers a prompt asking for it "slowly" after a minute.
const app = process.env.E2E_LLM_APP!
const KEYS = ['sk-fake-openai-key-123456', 'sk-ant-fake-anthropic-key-123456']

test('with provider keys on the server, the model select offers their models (never the keys); a run is cancelled from the editor mid-step', async ({ page, request }) => {
  const created = await request.post(`${app}/api/workflows`, { data: {
    name: 'Slow answer',
    nodes: [
      { id: 'in', type: 'input', position: { x: 0, y: 0 } },
      { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Answer slowly: {{input.question}}' }, position: { x: 220, y: 0 } },
      { id: 'judge', type: 'evaluator', config: { evaluation_type: 'scoring', model: 'local:heuristic', content: '{{steps.draft.text}}' }, position: { x: 440, y: 0 } },
    ],
    edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }],
  } })
  expect(created.status()).toBe(201)
  const { id } = await created.json()
  const responses: string[] = []
  page.on('response', async (response) => {
    if (response.url().startsWith(app) && response.request().resourceType() !== 'eventsource') responses.push(await response.text().catch(() => ''))
  })
  await page.goto(`${app}/workflows/${id}`)

  await page.getByTestId('node-judge').click()
  const judge = page.getByLabel('Judge model')
  await expect(judge.locator('option')).not.toHaveCount(1)
  const models = await judge.locator('option').evaluateAll(options => options.map(o => (o as HTMLOptionElement).value))
  expect(models).toContain('local:heuristic')
  expect(models.some(m => m.startsWith('openai:'))).toBe(true)
  expect(models.some(m => m.startsWith('anthropic:'))).toBe(true)

  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await page.getByRole('button', { name: 'Start run' }).click()
  await expect(page.getByTestId('status-draft')).toContainText('running')
  await expect(page.getByTestId('run-status')).toHaveText('running')
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByTestId('run-status')).toHaveText('cancelled', { timeout: 10_000 })
  await expect(page.getByTestId('status-draft')).toContainText('cancelled')
  await expect(page.getByTestId('status-judge')).toHaveCount(0)
  await page.screenshot({ path: 'test-results/e2e/run-cancelled.png' })

  const runs = await (await request.get(`${app}/api/workflows/${id}/runs`)).json()
  expect(runs.map((r: { status: string }) => r.status)).toEqual(['cancelled'])
  const html = await page.content()
  // The responses read include the server's list of models, which names the configured providers.
  expect(responses.some(body => body.includes('"openai:'))).toBe(true)
  for (const key of KEYS) {
    expect(html).not.toContain(key)
    for (const body of responses) expect(body).not.toContain(key)
  }
})
