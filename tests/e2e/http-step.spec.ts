import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import { newWorkflow, runTemplate } from './helpers'

/**
 * The http step in the editor: its form filled by mouse and keyboard, a test request to an endpoint
 * on loopback (the e2e server lists 127.0.0.1 in JUDGEFLOW_HTTP_ALLOW and E2E_API_KEY in
 * JUDGEFLOW_HTTP_ENV: playwright.config.ts), a refused address, and the "Gate your API" template.
 */
const SECRET = 'e2e-secret-key-value'
let endpoint: Server
let base = ''
const seen: IncomingHttpHeaders[] = []

test.beforeAll(async () => {
  endpoint = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk))
    req.on('end', () => {
      seen.push(req.headers)
      const question = (JSON.parse(body || '{}') as { question?: string }).question ?? ''
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ reply: { text: `Echo: ${question} (key ${req.headers['x-api-key'] ?? 'none'})` } }))
    })
  })
  await new Promise<void>(resolve => endpoint.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}`
})
test.afterAll(async () => {
  endpoint.closeAllConnections()
  await new Promise(resolve => endpoint.close(resolve))
})

test('an http step from the palette, filled by mouse and keyboard, answers a test request; a private address is refused', async ({ page }) => {
  test.setTimeout(90_000)
  await page.goto('/')
  await newWorkflow(page, 'Gate my API')
  await page.getByTestId('add-http').click()
  await expect(page.getByTestId('summary-http')).toHaveText('no URL set')
  const panel = page.getByRole('region', { name: 'Settings of http' })

  // The URL by mouse and typing; the method by the keyboard alone.
  await panel.getByLabel('URL', { exact: true }).click()
  await page.keyboard.type(`${base}/chat`)
  await page.keyboard.press('Tab')
  await expect(page.getByTestId('summary-http')).toHaveText(`POST ${base.replace('http://', '')}/chat`)
  const method = panel.getByLabel('Method', { exact: true })
  await method.focus()
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  await expect(method).toHaveValue('POST')

  // A header read from the server's environment: added by mouse, typed with Tab between its fields.
  await panel.getByRole('button', { name: 'Add header' }).click()
  await panel.getByLabel('Header 1 name').click()
  await page.keyboard.type('X-Api-Key')
  await page.keyboard.press('Tab')
  await expect(panel.getByLabel('Header 1 value')).toBeFocused()
  await page.keyboard.type('{{env.E2E_API_KEY}}')
  await page.keyboard.press('Tab')
  await expect(panel.getByText('never stored or shown')).toBeVisible()

  // A body left half-typed is flagged and kept; finished, it is taken.
  const body = panel.getByLabel('Body', { exact: true })
  await body.click()
  await page.keyboard.type('{"question": ')
  await panel.getByLabel('Answer path', { exact: true }).click()
  await expect(panel.getByText(/^Body is not valid JSON/)).toBeVisible()
  await expect(body).toHaveAttribute('aria-invalid', 'true')
  await expect(body).toHaveValue('{"question": ')
  await body.click()
  await page.keyboard.press('End')
  await page.keyboard.type('"{{input.question}}"}')
  await panel.getByLabel('Answer path', { exact: true }).click()
  await expect(panel.getByText(/^Body is not valid JSON/)).toHaveCount(0)

  await page.keyboard.type('reply.text')
  await page.keyboard.press('Tab')
  await panel.getByLabel('Timeout (ms)').fill('5000')
  await page.keyboard.press('Tab')
  await expect(panel.getByLabel('Retries', { exact: true })).toBeFocused()
  await page.keyboard.type('0')
  await page.keyboard.press('Tab')
  await panel.getByLabel('Expected status').fill('200, 2x1')
  await page.keyboard.press('Tab')
  await expect(panel.getByText('Expected status has "2x1", which is not an HTTP status')).toBeVisible()
  await panel.getByLabel('Expected status').fill('200, 201')
  await page.keyboard.press('Tab')
  await expect(panel.getByText(/Expected status has/)).toHaveCount(0)

  // The test request: a sample input, then status, latency and the answer, the key never shown.
  const tester = panel.getByTestId('http-test')
  await tester.getByText('Test request', { exact: true }).click()
  await tester.getByLabel('Sample run input (JSON)').fill('{"question": "What is 2+2?"}')
  await tester.getByRole('button', { name: 'Send test request' }).click()
  const result = tester.getByTestId('http-test-result')
  await expect(result).toContainText(/^200 · \d+ ms/)
  await expect(tester.getByTestId('http-test-answer')).toHaveText('Echo: What is 2+2? (key [env.E2E_API_KEY])')
  expect(seen.at(-1)?.['x-api-key']).toBe(SECRET)
  expect(await page.content()).not.toContain(SECRET)
  // Labelled and reachable: no serious WCAG A/AA finding in the form with its result.
  const { violations } = await new AxeBuilder({ page }).include('.side').withTags(['wcag2a', 'wcag2aa']).analyze()
  expect(violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => `${v.id}: ${v.nodes.map(n => n.target.join(' ')).join(' | ')}`)).toEqual([])
  await result.scrollIntoViewIfNeeded()
  await page.screenshot({ path: '/tmp/http-form.png' })
  await panel.getByLabel('URL', { exact: true }).scrollIntoViewIfNeeded()
  await page.screenshot({ path: '/tmp/http-form-top.png' })

  // A link-local address (a cloud's metadata service): refused before anything connects.
  const calls = seen.length
  await panel.getByLabel('URL', { exact: true }).fill('http://169.254.169.254/latest/meta-data')
  await page.keyboard.press('Tab')
  await tester.getByRole('button', { name: 'Send test request' }).click()
  await expect(tester.getByTestId('http-test-error')).toHaveText(
    'POST http://169.254.169.254/latest/meta-data is refused: 169.254.169.254 is not in JUDGEFLOW_HTTP_ALLOW (127.0.0.1), the hosts the server may call.',
  )
  expect(seen.length).toBe(calls)
  await tester.getByTestId('http-test-error').scrollIntoViewIfNeeded()
  await page.screenshot({ path: '/tmp/http-refused.png' })
})

test('the "Gate your API" template runs offline to a verdict: its HTTP step answers with its pinned response', async ({ page }) => {
  await page.goto('/')
  await expect(page.getByText('set the HTTP step\'s URL, body and answer path, then remove its pinned output')).toBeVisible()
  await runTemplate(page, 'gate-your-api')
  await expect(page.getByTestId('run-verdict')).toHaveText('pass')
  await expect(page.getByTestId('status-api')).toHaveText('succeeded')
  await page.getByTestId('node-api').click()
  await expect(page.getByRole('region', { name: 'Settings of api' }).getByLabel('URL', { exact: true })).toHaveValue('https://api.example.com/chat')
  await page.screenshot({ path: '/tmp/http-template.png' })
})
