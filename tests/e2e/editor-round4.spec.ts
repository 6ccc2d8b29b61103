import { writeFileSync } from 'node:fs'
import { expect, test, type Dialog, type Locator, type Page } from '@playwright/test'
import { runTemplate } from './helpers'

type Box = { x: number, y: number, width: number, height: number }
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
const settle = (page: Page) => page.waitForTimeout(400)
const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`) })

async function openTemplate(page: Page, template: string) {
  await page.goto('/')
  await page.getByTestId(`template-${template}`).click()
  await expect(page).toHaveURL(/\/workflows\/[^/]+$/)
  await expect(page.getByTestId('node-judge')).toBeVisible()
  return page.url().split('/').pop()!
}
async function savedNode(page: Page, id: string, node: string) {
  const { definition } = await (await page.request.get(`/api/workflows/${id}`)).json() as { definition: { nodes: Array<{ id: string, name?: string, config: Record<string, unknown> }> } }
  return definition.nodes.find(n => n.id === node)
}
/** Types at the end of a field, leaving the focus in it. */
async function typeAtEnd(field: Locator, text: string) {
  await field.click()
  await field.press('Control+End')
  await field.pressSequentially(text)
}

test.describe('no keystroke lost', () => {
  test('Ctrl+S while typing saves what was typed; the field keeps the focus and the text', async ({ page }) => {
    const id = await openTemplate(page, 'quality-gate')
    await page.getByTestId('node-draft').click()
    const prompt = page.getByLabel('Prompt', { exact: true })
    const before = await prompt.inputValue()
    await typeAtEnd(prompt, ' Please be brief.')
    await page.keyboard.press('Control+s')
    await expect(page.getByRole('status').first()).toContainText('Saved version 2')
    expect((await savedNode(page, id, 'draft'))!.config.prompt).toBe(`${before} Please be brief.`)
    await expect(prompt).toBeFocused()
    await expect(prompt).toHaveValue(`${before} Please be brief.`)
    await expect(page.getByText('· unsaved')).toBeHidden()
    // Typing goes on where it stopped.
    await page.keyboard.type(' Thanks.')
    await expect(prompt).toHaveValue(`${before} Please be brief. Thanks.`)
    await page.keyboard.press('Control+s')
    await expect(page.getByRole('status').first()).toContainText('Saved version 3')
    expect((await savedNode(page, id, 'draft'))!.config.prompt).toBe(`${before} Please be brief. Thanks.`)
    // A label typed and saved the same way.
    const label = page.getByLabel('Label', { exact: true })
    await typeAtEnd(label, ' step')
    await page.keyboard.press('Control+s')
    await expect(page.getByRole('status').first()).toContainText('Saved version 4')
    expect((await savedNode(page, id, 'draft'))!.name).toBe('Draft step')
    await shot(page, 'ctrl-s-while-typing')
  })

  test('leaving the page while typing asks first, and staying keeps the text', async ({ page }) => {
    await openTemplate(page, 'quality-gate')
    await page.getByTestId('node-draft').click()
    const prompt = page.getByLabel('Prompt', { exact: true })
    await typeAtEnd(prompt, ' Please be brief.')
    const questions: string[] = []
    page.on('dialog', (dialog) => {
      questions.push(dialog.message())
      void dialog.dismiss()
    })
    await page.evaluate(() => history.back())
    await expect.poll(() => questions).toEqual(['Leave without saving your changes?'])
    await expect(page).toHaveURL(/\/workflows\/[^/]+$/)
    await expect(prompt).toHaveValue(/Please be brief\.$/)
    await expect(page.getByText('· unsaved')).toBeVisible()
  })

  test('closing the tab while typing asks first', async ({ page }) => {
    await openTemplate(page, 'quality-gate')
    await page.getByTestId('node-draft').click()
    await typeAtEnd(page.getByLabel('Prompt', { exact: true }), ' Please be brief.')
    const asked = new Promise<Dialog>(resolve => page.once('dialog', resolve))
    await page.close({ runBeforeUnload: true })
    const dialog = await asked
    expect(dialog.type()).toBe('beforeunload')
    await dialog.accept()
  })

  test('a run refused for an invalid workflow names the step and the field as the form does', async ({ page }) => {
    await openTemplate(page, 'quality-gate')
    await page.getByTestId('add-condition').click()
    await expect(page.getByTestId('node-condition')).toBeVisible()
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await page.getByRole('button', { name: 'Start run' }).click()
    const error = page.getByTestId('run-error')
    await expect(error).toContainText('The workflow is invalid and was not saved: Check (condition): Value is required')
    await expect(error).not.toContainText('nodes.')
    await expect(error).not.toContainText('config.')
    await shot(page, 'run-refused')
  })
})

test('a step card reached with Tab shows a focus ring; the others do not', async ({ page }) => {
  await openTemplate(page, 'quality-gate')
  await page.getByRole('button', { name: 'Auto-layout' }).focus()
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('Tab')
    if (await page.evaluate(() => !!document.activeElement?.matches('.vue-flow__node'))) break
  }
  const focused = page.locator('.vue-flow__node:focus')
  await expect(focused).toHaveAttribute('data-id', 'in')
  const ring = (card: Locator) => card.evaluate((el) => {
    const style = getComputedStyle(el)
    return { style: style.outlineStyle, width: Number.parseFloat(style.outlineWidth), color: style.outlineColor }
  })
  const on = await ring(focused)
  expect(on.style).not.toBe('none')
  expect(on.width).toBeGreaterThanOrEqual(2)
  expect((await ring(page.locator('.vue-flow__node[data-id="draft"]'))).style).toBe('none')
  await page.keyboard.press('Tab')
  await expect(page.locator('.vue-flow__node[data-id="draft"]')).toBeFocused()
  expect((await ring(page.locator('.vue-flow__node[data-id="draft"]'))).width).toBeGreaterThanOrEqual(2)
  await shot(page, 'card-focus-ring')
})

test.describe('a tall run panel', () => {
  test('tabbing into the run inspector never scrolls the editor: the toolbar stays in place', async ({ page }) => {
    await runTemplate(page, 'quality-gate')
    const handle = page.getByRole('separator', { name: 'Resize the run panel' })
    await handle.focus()
    await page.keyboard.press('End')
    await settle(page)
    const toolbar = (await page.locator('.toolbar').boundingBox())!
    const scrolled = () => page.evaluate(() => [...document.querySelectorAll('*')]
      .filter(el => !el.closest('.runs, .side, .vue-flow') && (el.scrollTop > 0 || el.scrollLeft > 0)).map(el => el.className))
    for (let i = 0; i < 14; i++) {
      await page.keyboard.press('Tab')
      expect(await scrolled(), `after ${i + 1} Tab presses`).toEqual([])
    }
    expect(await page.evaluate(() => !!document.activeElement?.closest('.runs'))).toBe(true)
    expect((await page.locator('.toolbar').boundingBox())!.y).toBe(toolbar.y)
    const editor = await page.locator('.editor').evaluate(el => [el.scrollHeight, el.clientHeight])
    expect(editor[0]).toBeLessThanOrEqual(editor[1]!)
    await shot(page, 'tall-panel-tabbed')
  })

  test('neither the hint nor the minimap is drawn over a card, before and after a run', async ({ page }) => {
    await openTemplate(page, 'quality-gate')
    await page.getByTestId('toggle-run-panel').click()
    await page.getByRole('separator', { name: 'Resize the run panel' }).focus()
    await page.keyboard.press('End')
    // The minimap is drawn a moment after the steps.
    await page.waitForTimeout(2500)
    const stage = (await page.locator('.stage').boundingBox())!
    const drawnOver = async (chrome: Locator) => {
      if (!(await chrome.count()) || !(await chrome.isVisible())) return []
      const box = (await chrome.boundingBox())!
      const shown = await chrome.evaluate(el => Number(getComputedStyle(el).opacity) > 0 && getComputedStyle(el).visibility !== 'hidden')
      if (!shown) return []
      const over: string[] = []
      for (const card of await page.locator('.vue-flow__node').all()) {
        const b = await card.boundingBox()
        if (b && overlap(b, stage) && overlap(b, box)) over.push((await card.getAttribute('data-id'))!)
      }
      return over
    }
    const hint = page.locator('.select-hint')
    const minimap = page.locator('.vue-flow__minimap')
    expect(await drawnOver(hint), 'the hint over a card').toEqual([])
    expect(await drawnOver(minimap), 'the minimap over a card').toEqual([])
    await shot(page, 'tall-panel-chrome')
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await page.getByRole('button', { name: 'Start run' }).click()
    await expect(page.getByTestId('run-status')).toHaveText('succeeded', { timeout: 15_000 })
    await page.waitForTimeout(1000)
    expect(await drawnOver(hint), 'the hint over a card after a run').toEqual([])
    expect(await drawnOver(minimap), 'the minimap over a card after a run').toEqual([])
    await shot(page, 'tall-panel-chrome-run')
  })
})

test('an imported workflow without positions is laid out left to right, a condition\'s branches one above the other', async ({ page }) => {
  const definition = {
    name: 'Imported gate',
    nodes: [
      { id: 'in', type: 'input', config: { fields: { question: { type: 'string' } } } },
      { id: 'gen', type: 'llm', config: { model: 'local:heuristic', prompt: '{{input.question}}' }, pinned: ['An answer.'] },
      { id: 'judge', type: 'evaluator', config: { evaluation_type: 'scoring', model: 'local:heuristic', content: '{{steps.gen.text}}', pass_threshold: 0.5 } },
      { id: 'check', type: 'condition', config: { left: '{{steps.judge.passed}}', op: 'truthy' } },
      { id: 'pass', type: 'output', config: { verdict: 'pass' } },
      { id: 'fail', type: 'output', config: { verdict: 'fail' } },
    ],
    edges: [
      { from: 'in', to: 'gen' }, { from: 'gen', to: 'judge' }, { from: 'judge', to: 'check' },
      { from: 'check', to: 'pass', when: 'true' }, { from: 'check', to: 'fail', when: 'false' },
    ],
  }
  const file = test.info().outputPath('unplaced.json')
  writeFileSync(file, JSON.stringify(definition))
  await page.goto('/')
  await page.getByLabel('Import a workflow file').setInputFiles(file)
  await expect(page.getByLabel('Workflow name')).toHaveValue('Imported gate')
  await expect(page.getByTestId('node-fail')).toBeVisible()
  await settle(page)
  const box = async (id: string) => (await page.locator(`.vue-flow__node[data-id="${id}"]`).boundingBox())!
  const boxes = Object.fromEntries(await Promise.all(definition.nodes.map(async n => [n.id, await box(n.id)] as const)))
  // Each edge runs left to right; the two branches share a column, the passing one on top.
  for (const edge of definition.edges) expect(boxes[edge.to]!.x, `${edge.from} → ${edge.to}`).toBeGreaterThan(boxes[edge.from]!.x + boxes[edge.from]!.width)
  expect(Math.abs(boxes.pass!.x - boxes.fail!.x)).toBeLessThan(2)
  expect(boxes.pass!.y + boxes.pass!.height).toBeLessThan(boxes.fail!.y)
  const ids = Object.keys(boxes)
  for (const [i, a] of ids.entries()) for (const b of ids.slice(i + 1)) expect(overlap(boxes[a]!, boxes[b]!), `${a} over ${b}`).toBe(false)
  // The failing branch's edge passes no card on its way.
  const falseEdge = (await page.locator('.vue-flow__edge[data-id="check->fail:false"] .vue-flow__edge-path').boundingBox())!
  expect(overlap(falseEdge, boxes.pass!), 'the false edge behind the pass card').toBe(false)
  // Opening it is not an edit.
  await expect(page.getByText('· unsaved')).toBeHidden()
  await shot(page, 'imported-laid-out')
})

test.describe('valid from the first click', () => {
  test('new steps start valid where a default fits, and their problems are counted as soon as they are added', async ({ page }) => {
    await openTemplate(page, 'quality-gate')
    const side = page.getByRole('complementary', { name: 'Step settings' })
    const count = page.getByTestId('problem-count')
    await expect(count).toHaveText(/\b0 problems/)
    await page.getByTestId('add-retry').click()
    await expect(side.getByLabel('Max attempts', { exact: true })).toHaveValue('3')
    // Counted and marked at once, before any save; the form is not flagged before a field is left.
    await expect(page.getByTestId('problems-retry')).toContainText('1 problem: Step to re-run is required.')
    await expect(count).toHaveText(/\b1 problem\b/)
    await expect(side.locator('.error')).toHaveCount(0)
    await page.getByTestId('add-condition').click()
    await expect(side.getByLabel('Operator', { exact: true })).toHaveValue('truthy')
    await expect(count).toHaveText(/\b2 problems/)

    await page.getByTestId('add-evaluator').click()
    await page.getByLabel('Evaluation type').selectOption('criteria')
    const sum = page.getByTestId('weight-sum')
    for (const [n, total] of [[1, '1.00'], [2, '1.00'], [3, '1.00']] as const) {
      await page.getByRole('button', { name: 'Add criterion' }).click()
      await expect(page.getByLabel(`Criterion ${n} name`, { exact: true })).toBeVisible()
      await expect(sum).toHaveText(total)
      await expect(page.getByText('(must be 1.00)')).toHaveCount(0)
    }
    for (const [n, weight] of [[1, '0.33'], [2, '0.33'], [3, '0.33']] as const) {
      await expect(side.getByLabel(`Criterion ${n} weight`, { exact: true })).toHaveAttribute('aria-valuetext', weight)
    }
    await shot(page, 'new-steps-valid')
  })
})

/** A gate whose judge is called "grader", created through the API and opened. */
async function openGraderGate(page: Page) {
  const created = await page.request.post('/api/workflows', { data: {
    name: 'Grader gate',
    nodes: [
      { id: 'in', type: 'input', config: { fields: { question: { type: 'string' } } }, position: { x: 0, y: 0 } },
      { id: 'gen', type: 'llm', config: { model: 'local:heuristic', prompt: '{{input.question}}' }, pinned: ['An answer.'], position: { x: 220, y: 0 } },
      { id: 'grader', type: 'evaluator', config: { evaluation_type: 'scoring', model: 'local:heuristic', content: '{{steps.gen.text}}', pass_threshold: 0.5 }, position: { x: 440, y: 0 } },
      { id: 'gate', type: 'condition', name: 'Gate', config: { left: '{{steps.grader.passed}}', op: 'truthy' }, position: { x: 660, y: 0 } },
      { id: 'ok', type: 'output', config: { verdict: 'pass' }, position: { x: 880, y: 0 } },
    ],
    edges: [{ from: 'in', to: 'gen' }, { from: 'gen', to: 'grader' }, { from: 'grader', to: 'gate' }, { from: 'gate', to: 'ok', when: 'true' }],
  } })
  const { id } = await created.json() as { id: string }
  await page.goto(`/workflows/${id}`)
  await expect(page.getByTestId('node-gate')).toBeVisible()
}

test('a reference\'s problem shows while it is typed, "did you mean" first; the condition\'s help names the evaluator before it', async ({ page }) => {
  await openGraderGate(page)
  await page.getByTestId('node-gate').click()
  const side = page.getByRole('complementary', { name: 'Step settings' })
  await expect(side).toContainText('such as {{steps.grader.passed}}')
  const value = side.getByLabel('Value', { exact: true })
  await value.click()
  await value.press('Control+a')
  await value.pressSequentially('{{steps.grader.pased}}')
  // Still in the field: the problem is there already, the suggestion before the list of fields.
  await expect(value).toBeFocused()
  const error = side.locator('.field.invalid .error').first()
  await expect(error).toContainText('did you mean `passed`?')
  const text = (await error.textContent())!
  expect(text.indexOf('did you mean')).toBeLessThan(text.indexOf('its fields'))
  await shot(page, 'reference-while-typing')
  // Put right while typing, the problem goes.
  await value.press('Control+a')
  await value.pressSequentially('{{steps.grader.passed}}')
  await expect(value).toBeFocused()
  await expect(side.locator('.field.invalid')).toHaveCount(0)
})

test('Escape closes the settings from a select and from a text field, keeping what was typed, and gives the focus back to the step', async ({ page }) => {
  await openTemplate(page, 'quality-gate')
  const side = page.getByRole('complementary', { name: 'Step settings' })
  await page.getByTestId('node-check').click()
  await side.getByLabel('Operator', { exact: true }).focus()
  await page.keyboard.press('Escape')
  await expect(side).toHaveCount(0)
  await expect(page.locator('.vue-flow__node[data-id="check"]')).toBeFocused()
  // Enter opens it again; from a text field, Escape keeps what was typed.
  await page.keyboard.press('Enter')
  await expect(side).toBeVisible()
  const label = side.getByLabel('Label', { exact: true })
  await typeAtEnd(label, ' now')
  await page.keyboard.press('Escape')
  await expect(side).toHaveCount(0)
  await expect(page.getByTestId('label-check')).toHaveText('Passed? now')
  await expect(page.locator('.vue-flow__node[data-id="check"]')).toBeFocused()
})
