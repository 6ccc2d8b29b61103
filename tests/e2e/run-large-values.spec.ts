import { expect, test } from '@playwright/test'

// A step whose output is too large for the run's answer is shown by its size and start, with a
// link that opens the whole value.
test('a value too large for the run\'s answer shows its size and start, and opens whole from its link', async ({ page, request }) => {
  const created = await request.post('/api/workflows', {
    data: {
      name: 'Large output',
      nodes: [{ id: 'in', type: 'input' }, { id: 'out', type: 'output', config: { value: ['{{input.text}}', '{{input.text}}'] } }],
      edges: [{ from: 'in', to: 'out' }],
    },
  })
  const workflow = (await created.json()).id
  const started = await request.post(`/api/workflows/${workflow}/runs`, { data: { input: { text: 'All work and no play. '.repeat(2_000) } } })
  const run = (await started.json()).id
  await expect.poll(async () => (await (await request.get(`/api/runs/${run}`)).json()).status, { timeout: 15_000 }).toBe('succeeded')

  await page.goto(`/runs/${run}`)
  const step = page.getByTestId('inspect-out')
  await step.getByText('attempt 1: succeeded').click()
  // The output's box (the input above it is too large as well).
  const output = step.getByTestId('output-out-1')
  await expect(output).toContainText(/Too large to show here: 88,0\d\d characters of JSON\./)
  await expect(output.getByTestId('truncated-preview')).toContainText('"value":["All work and no play. All work')
  await page.screenshot({ path: 'test-results/e2e/run-large-values.png' })

  const link = output.getByRole('link', { name: 'Open the whole output' })
  await expect(link).toHaveAttribute('href', `/api/runs/${run}/steps/out/1/output`)
  const [tab] = await Promise.all([page.context().waitForEvent('page'), link.click()])
  await tab.waitForLoadState()
  const whole = JSON.parse(await tab.locator('body').innerText()) as { value: string[] }
  expect(whole.value).toHaveLength(2)
  expect(whole.value[0]).toHaveLength(44_000)
})

// A run's input is stored as it is given, so one shaped like a marker reaches the page: its href,
// chosen by whoever started the run, is never a link; the only links are to where the API reads values.
test('a run input shaped like a marker of a value too large is never a link to the address it names', async ({ page, request }) => {
  const created = await request.post('/api/workflows', {
    data: {
      name: 'Marker-shaped input',
      nodes: [{ id: 'in', type: 'input' }, { id: 'out', type: 'output', config: { value: '{{input.preview}}' } }],
      edges: [{ from: 'in', to: 'out' }],
    },
  })
  const workflow = (await created.json()).id
  const chosen = { truncated: true, size: 12, preview: '"click me"', href: 'javascript:alert(1)', also: { truncated: true, size: 12, preview: '"x"', href: 'https://evil.example/' } }
  const started = await request.post(`/api/workflows/${workflow}/runs`, { data: { input: chosen } })
  const run = (await started.json()).id
  await expect.poll(async () => (await (await request.get(`/api/runs/${run}`)).json()).status, { timeout: 15_000 }).toBe('succeeded')

  await page.goto(`/runs/${run}`)
  await expect(page.getByTestId('truncated-value').first()).toContainText('Too large to show here: 12 characters of JSON.')
  await expect(page.locator('a[href^="javascript:" i], a[href*="evil.example"]')).toHaveCount(0)
  const links = page.getByRole('link', { name: /^Open the whole/ })
  for (const href of await links.evaluateAll(found => found.map(a => a.getAttribute('href')))) {
    expect(href).toMatch(new RegExp(`^/api/runs/${run}(/steps/[\\w-]+/\\d+)?/(input|output)$`))
  }
})
