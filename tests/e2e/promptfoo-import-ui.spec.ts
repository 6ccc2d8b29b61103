import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'

/** Serious and critical WCAG A/AA findings, with where they are. */
async function violations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze()
  return violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')}`)
}

/** A small promptfoo config: one prompt, one provider, two tests with assertions, and a setting the import leaves out. */
const configNamed = (name: string) => `description: ${name}
prompts:
  - 'Greet {{name}} in one line.'
providers:
  - openai:chat:gpt-4o-mini
outputPath: results.json
tests:
  - description: ada
    vars: { name: Ada }
    assert:
      - { type: icontains, value: '{{name}}' }
  - description: bob
    vars: { name: Bob }
    assert:
      - { type: icontains, value: '{{name}}' }
      - { type: not-contains, value: sorry }
`

test('a pasted promptfoo config becomes a dataset and a laid-out workflow in one action; the dialog says what was converted and what was left out, and links to both', async ({ page }, testInfo) => {
  test.setTimeout(60_000)
  const name = `Greetings ${Date.now()}`
  await page.goto('/datasets')
  await page.getByRole('button', { name: 'Import promptfoo config…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Import a promptfoo config' })
  await expect(dialog).toBeVisible()
  await dialog.getByLabel('Or paste it').fill(configNamed(name))
  await dialog.getByRole('button', { name: 'Import', exact: true }).click()

  await expect(dialog.getByRole('status')).toHaveText(`Imported "${name}": a dataset of 2 cases and a workflow of 3 steps.`)
  const converted = dialog.getByTestId('promptfoo-converted')
  await expect(converted).toContainText(`Tests → dataset "${name}": 2 cases`)
  await expect(converted).toContainText('input, generate (llm), judge (evaluator)')
  await expect(converted).toContainText('assertions judge 2 cases')
  await expect(dialog.getByTestId('promptfoo-notes').getByRole('listitem')).toHaveText(['outputPath: write the report with judgeflow test --report'])
  const box = (await dialog.boundingBox())!
  expect(box.y + box.height).toBeLessThanOrEqual(720)
  await page.screenshot({ path: testInfo.outputPath('promptfoo-import-result-light.png') })

  const datasetHref = await dialog.getByRole('link', { name: 'Open the dataset' }).getAttribute('href')
  expect(datasetHref).toMatch(/^\/datasets\/[\w-]+$/)
  // The datasets list behind the dialog has the new one already.
  await expect(page.locator('table a', { hasText: name })).toBeVisible()

  await dialog.getByRole('link', { name: 'Open the workflow' }).click()
  await expect(page).toHaveURL(/\/workflows\/[\w-]+$/)
  const cards = ['input', 'generate', 'judge'].map(id => page.getByTestId(`node-${id}`))
  for (const card of cards) await expect(card).toBeVisible()
  // Laid out left to right, none on top of another, all within the window.
  const boxes = await Promise.all(cards.map(async card => (await card.boundingBox())!))
  for (let i = 1; i < boxes.length; i++) expect(boxes[i]!.x, 'each step right of the one before').toBeGreaterThanOrEqual(boxes[i - 1]!.x + boxes[i - 1]!.width)
  for (const b of boxes) expect(b.x + b.width).toBeLessThanOrEqual(1280)
  await page.screenshot({ path: testInfo.outputPath('promptfoo-import-workflow.png') })

  await page.goto(datasetHref!)
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible()
  await expect(page.getByTestId(/^case-/)).toHaveCount(2)
  await expect(page.getByTestId('case-ada')).toBeVisible()
  await expect(page.getByTestId('case-bob')).toBeVisible()
  await page.screenshot({ path: testInfo.outputPath('promptfoo-import-dataset.png') })
})

for (const theme of ['light', 'dark'] as const) {
  test(`${theme} theme: by keyboard alone the dialog opens, names the field the config is refused for, keeps the text, imports, and Escape gives the focus back (axe)`, async ({ page }, testInfo) => {
    test.setTimeout(60_000)
    await page.emulateMedia({ colorScheme: theme })
    const name = `Keyboard ${theme} ${Date.now()}`
    await page.goto('/datasets')
    const opener = page.getByRole('button', { name: 'Import promptfoo config…' })
    await opener.focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: 'Import a promptfoo config' })
    await expect(dialog).toBeVisible()
    await expect(dialog.getByLabel('Name')).toBeFocused()
    // Escape closes it, and the focus is back where it was.
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    await expect(opener).toBeFocused()

    await page.keyboard.press('Enter')
    await expect(dialog.getByLabel('Name')).toBeFocused()
    await page.keyboard.type(name)
    const text = dialog.getByLabel('Or paste it')
    const refused = configNamed(name).replace('vars: { name: Bob }', 'vars: 3')
    await text.fill(refused)
    await text.press('Tab')
    // Tab on to the Import button, then Enter.
    const importButton = dialog.getByRole('button', { name: 'Import', exact: true })
    for (let i = 0; i < 6 && !(await importButton.evaluate(el => el === document.activeElement)); i++) await page.keyboard.press('Tab')
    await expect(importButton).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(dialog.getByRole('alert')).toContainText('the promptfoo config, tests[1].vars:')
    await expect(text).toHaveValue(refused)
    expect(await violations(page)).toEqual([])
    await page.screenshot({ path: testInfo.outputPath(`promptfoo-import-error-${theme}.png`) })

    await text.fill(configNamed(name))
    await importButton.focus()
    await page.keyboard.press('Enter')
    await expect(dialog.getByRole('status')).toHaveText(`Imported "${name}": a dataset of 2 cases and a workflow of 3 steps.`)
    await expect(dialog.getByRole('heading', { name: 'Imported' })).toBeFocused()
    expect(await violations(page)).toEqual([])
    await page.screenshot({ path: testInfo.outputPath(`promptfoo-import-result-${theme}.png`) })
    // The links are reachable by Tab.
    await page.keyboard.press('Tab')
    await expect(dialog.getByRole('link', { name: 'Open the workflow' })).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    await expect(opener).toBeFocused()
    await expect(page.getByRole('table').getByRole('link', { name })).toBeVisible()
  })
}
