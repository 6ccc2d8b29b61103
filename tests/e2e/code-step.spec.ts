import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { connect, newWorkflow } from './helpers'

/**
 * The code step in the editor: added from the palette, its form filled by mouse and keyboard, a
 * missing file flagged beside its field, and runs whose step calls tests/e2e/configs/product.py or
 * product.ts in the sandbox (the e2e server sets JUDGEFLOW_ALLOW_CODE and JUDGEFLOW_CONFIG_DIR:
 * playwright.config.ts; E2E_API_KEY is in its JUDGEFLOW_HTTP_ENV).
 */
test('a code step from the palette, filled by mouse and keyboard, calls a module of the config folder in a run', async ({ page }) => {
  test.setTimeout(120_000)
  await page.goto('/')
  await newWorkflow(page, 'Call my function')
  await page.getByTestId('add-code').click()
  await expect(page.getByTestId('summary-code')).toHaveText('no file set')
  const panel = page.getByRole('region', { name: 'Settings of code' })
  await expect(panel.getByRole('heading', { name: 'Call function · Code' })).toBeVisible()

  // No file named: once a field is left, the engine's problem is said beside the file name.
  const moduleFile = panel.getByRole('textbox', { name: 'Module file', exact: true })
  await moduleFile.click()
  await page.keyboard.press('Tab')
  const missing = panel.getByText('Give module (a JavaScript or TypeScript file) or python (a Python file): the function the step calls.')
  await expect(missing).toBeVisible()
  await expect(moduleFile).toHaveAttribute('aria-invalid', 'true')
  await page.screenshot({ path: '/tmp/code-missing.png' })

  // The kind by the keyboard: the arrows move between the radios; the file keeps its name, with the kind's extension.
  const kinds = panel.getByRole('radiogroup', { name: 'Kind of file' })
  await kinds.getByRole('radio', { name: 'JavaScript / TypeScript' }).focus()
  await page.keyboard.press('ArrowDown')
  await expect(kinds.getByRole('radio', { name: 'Python' })).toBeChecked()
  await expect(panel.getByText('def call(input, context)')).toBeVisible()
  await panel.getByRole('textbox', { name: 'Python file', exact: true }).click()
  await page.keyboard.type('product.py')
  await page.keyboard.press('Tab')
  await expect(page.getByTestId('summary-code')).toHaveText('python: product.py')
  await expect(missing).toHaveCount(0)
  await kinds.getByRole('radio', { name: 'Python' }).focus()
  await page.keyboard.press('ArrowUp')
  await expect(panel.getByRole('textbox', { name: 'Module file', exact: true })).toHaveValue('product.ts')
  await expect(page.getByTestId('summary-code')).toHaveText('product.ts')
  await expect(panel.getByText('export default async function (input, context)')).toBeVisible()

  // The input: half-typed JSON is flagged and kept; `{{` offers the references; finished, it is taken.
  const input = panel.getByLabel('Function input', { exact: true })
  await input.click()
  await page.keyboard.type('{"question": ')
  await panel.getByLabel('Timeout (ms)').click()
  await expect(panel.getByText(/^Function input is not valid JSON/)).toBeVisible()
  await expect(input).toHaveAttribute('aria-invalid', 'true')
  await expect(input).toHaveValue('{"question": ')
  await input.click()
  await page.keyboard.press('End')
  await page.keyboard.type('"{{')
  await expect(page.getByRole('listbox', { name: 'References for Function input' })).toBeVisible()
  await page.keyboard.press('Escape')
  await page.keyboard.type('input.question}}"}')
  await panel.getByLabel('Timeout (ms)').click()
  await expect(panel.getByText(/^Function input is not valid JSON/)).toHaveCount(0)

  // Timeout, network (ticked and unticked with Space), variables (a wrong name said by name, then fixed).
  await page.keyboard.type('20000')
  await page.keyboard.press('Tab')
  const network = panel.getByRole('checkbox', { name: 'Allow network access' })
  await expect(network).toBeFocused()
  await expect(panel.getByText('Unticked, the code has no network')).toBeVisible()
  await page.keyboard.press('Space')
  await expect(network).toBeChecked()
  await page.keyboard.press('Space')
  await expect(network).not.toBeChecked()
  await page.keyboard.press('Tab')
  const env = panel.getByLabel('Environment variables', { exact: true })
  await expect(env).toBeFocused()
  await page.keyboard.type('E2E_API_KEY, 2FA')
  await page.keyboard.press('Tab')
  await expect(panel.getByText('"2FA" is not an environment variable\'s name.')).toBeVisible()
  await page.screenshot({ path: '/tmp/code-errors.png' })
  await expect(panel.getByText('Only names JUDGEFLOW_HTTP_ENV or the workflow\'s settings.env lists are readable.')).toBeVisible()
  await env.fill('E2E_API_KEY')
  await page.keyboard.press('Tab')
  await expect(panel.getByText('is not an environment variable\'s name')).toHaveCount(0)

  // Labelled and reachable: no serious WCAG A/AA finding in the panel.
  const { violations } = await new AxeBuilder({ page }).include('.side').withTags(['wcag2a', 'wcag2aa']).analyze()
  expect(violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => `${v.id}: ${v.nodes.map(n => n.target.join(' ')).join(' | ')}`)).toEqual([])
  await panel.getByRole('group', { name: 'Function to call' }).scrollIntoViewIfNeeded()
  await page.screenshot({ path: '/tmp/code-form.png' })
  await env.scrollIntoViewIfNeeded()
  await page.screenshot({ path: '/tmp/code-form-bottom.png' })

  // A run, the step switched to Python by mouse: it calls product.py in the sandbox with the rendered input and the variable it lists.
  await kinds.getByRole('radio', { name: 'Python' }).click()
  await expect(page.getByTestId('summary-code')).toHaveText('python: product.py')
  await connect(page, 'in', 'code')
  await expect(page.locator('.vue-flow__edge')).toHaveCount(1)
  await expect(page.getByText('0 problems')).toBeVisible()
  await runWith(page, '{"question": "What is two plus two?"}')
  await expect(page.getByTestId('run-status')).toHaveText('succeeded')
  await page.getByTestId('inspect-code').getByText('attempt 1: succeeded').click()
  await expect(page.getByTestId('output-code-1')).toHaveText(JSON.stringify({ text: 'code answered: WHAT IS TWO PLUS TWO?', words: 5, sees_key: true }, null, 2))
  await page.getByTestId('output-code-1').scrollIntoViewIfNeeded()
  await page.screenshot({ path: '/tmp/code-run.png' })
})

test('a code step calling a TypeScript module of the config folder runs from the built server', async ({ page }) => {
  // Fails today: the built server's bundle has Nitro's rewrite of the module banner's `import.meta.url`
  // (globalThis._importMeta_.url), undefined in the sandbox. Remove this line when engine/sandbox/module-bundle.ts is fixed.
  const created = await page.request.post('/api/workflows', {
    data: {
      name: 'Call my module',
      nodes: [
        { id: 'in', type: 'input', position: { x: 40, y: 120 } },
        { id: 'code', type: 'code', position: { x: 300, y: 120 }, config: { module: 'product.ts', input: { question: '{{input.question}}' }, env: ['E2E_API_KEY'], timeout_ms: 20_000 } },
      ],
      edges: [{ from: 'in', to: 'code' }],
    },
  })
  expect(created.status()).toBe(201)
  await page.goto(`/workflows/${(await created.json() as { id: string }).id}`)
  await expect(page.getByTestId('summary-code')).toHaveText('product.ts')
  await runWith(page, '{"question": "What is two plus two?"}')
  await page.screenshot({ path: '/tmp/code-run-module.png' })
  await expect(page.getByTestId('run-status')).toHaveText('succeeded')
  await page.getByTestId('inspect-code').getByText('attempt 1: succeeded').click()
  await expect(page.getByTestId('output-code-1')).toHaveText(JSON.stringify({ text: 'code answered: WHAT IS TWO PLUS TWO?', words: 5, sees_key: true }, null, 2))
})

test('a code step imported from a promptfoo config keeps its promptfoo call through the form\'s edits', async ({ page }) => {
  const promptfoo = { call: 'provider', prompt: 'Say hi to Ada', options: { id: 'file://provider.js', config: { temperature: 0 } } }
  const created = await page.request.post('/api/workflows', {
    data: {
      name: 'Imported provider',
      nodes: [
        { id: 'in', type: 'input', position: { x: 40, y: 120 } },
        { id: 'code', type: 'code', position: { x: 300, y: 120 }, config: { module: 'provider.js', promptfoo } },
      ],
      edges: [{ from: 'in', to: 'code' }],
    },
  })
  const { id } = await created.json() as { id: string }
  await page.goto(`/workflows/${id}`)
  await page.getByTestId('node-code').click()
  const panel = page.getByRole('region', { name: 'Settings of code' })
  await expect(panel.getByText('Imported from a promptfoo config: it is called as promptfoo calls a provider')).toBeVisible()
  await expect(panel.getByLabel('Function input', { exact: true })).toHaveCount(0)
  await panel.getByLabel('Timeout (ms)').fill('15000')
  await page.keyboard.press('Tab')
  await panel.getByRole('radio', { name: 'Python' }).click()
  await panel.getByRole('radio', { name: 'JavaScript / TypeScript' }).click()
  await page.keyboard.press('Control+s')
  await expect(page.getByRole('status').first()).toContainText('Saved version 2')
  const { definition } = await (await page.request.get(`/api/workflows/${id}`)).json() as { definition: { nodes: Array<{ id: string, config: Record<string, unknown> }> } }
  expect(definition.nodes.find(n => n.id === 'code')?.config).toEqual({ module: 'provider.js', promptfoo, timeout_ms: 15_000 })
  await page.screenshot({ path: '/tmp/code-promptfoo.png' })
})

/** Runs the workflow from the toolbar with this run input (JSON), until the run has ended either way. */
async function runWith(page: Page, input: string) {
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Run the workflow' })
  const runInput = dialog.getByLabel('Run input', { exact: true })
  if (!(await runInput.isVisible())) await dialog.getByText('Input as JSON').click()
  await runInput.fill(input)
  await dialog.getByRole('button', { name: 'Start run' }).click()
  await expect(page.getByTestId('run-status')).toHaveText(/^(succeeded|failed)$/, { timeout: 60_000 })
}
