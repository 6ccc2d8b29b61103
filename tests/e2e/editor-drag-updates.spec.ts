import { expect, test, type APIRequestContext } from '@playwright/test'
import { connect } from './helpers'

/**
 * A dragged step changes the document once, on the drop: the unsaved marker, undo and the problems
 * follow the drop, and a step's settings follow every change of the graph (what a step can read).
 */
async function created(request: APIRequestContext, definition: unknown): Promise<string> {
  const response = await request.post('/api/workflows', { data: definition })
  expect(response.status()).toBe(201)
  return (await response.json()).id
}

const GATE = {
  name: 'Dragged',
  nodes: [
    { id: 'in', type: 'input', config: { fields: { question: { type: 'string' } } }, position: { x: 0, y: 80 } },
    { id: 'draft', type: 'llm', config: { model: 'local:heuristic', prompt: 'Answer {{input.question}}' }, position: { x: 260, y: 80 } },
    { id: 'judge', type: 'evaluator', config: { evaluation_type: 'scoring', model: 'local:heuristic', content: '{{steps.draft.text}}' }, position: { x: 520, y: 80 } },
    // Reads a step it does not come after: one problem, on its card and in the palette's count.
    { id: 'ko', type: 'output', config: { value: '{{steps.judge.passed}}' }, position: { x: 260, y: 320 } },
    { id: 'again', type: 'retry', config: { max_attempts: 2 }, position: { x: 780, y: 80 } },
  ],
  edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }],
}

test('a drag changes the document on the drop: unsaved then, undone in one step, the problems kept on their card', async ({ page, request }) => {
  await page.goto(`/workflows/${await created(request, GATE)}`)
  const card = page.locator('.vue-flow__node[data-id="ko"]')
  const count = page.getByTestId('problem-count')
  await expect(page.getByTestId('problems-ko')).toBeVisible()
  const problems = await count.textContent()
  expect(problems).toMatch(/[1-9]\d* problems?/)
  await expect(page.getByText('· unsaved')).toBeHidden()

  const before = (await card.boundingBox())!
  // Where the card is beside another (the view pans when the settings open on the drop).
  const beside = async () => {
    const [a, b] = [(await card.boundingBox())!, (await page.locator('.vue-flow__node[data-id="draft"]').boundingBox())!]
    return Math.round((a.x - b.x) / a.width * 100)
  }
  const placed = await beside()
  await page.mouse.move(before.x + before.width / 2, before.y + 12)
  await page.mouse.down()
  await page.mouse.move(before.x + before.width / 2 + 60, before.y + 52, { steps: 8 })
  await expect.poll(async () => (await card.boundingBox())!.x).toBeGreaterThan(before.x + 40)
  // Mid-drag the document is as it was.
  await expect(page.getByText('· unsaved')).toBeHidden()
  await page.mouse.up()

  await expect(page.getByText('· unsaved')).toBeVisible()
  expect(await beside()).toBeGreaterThan(placed + 20)
  await expect(page.getByTestId('problems-ko')).toBeVisible()
  await expect(count).toHaveText(problems!)
  // The settings the drop opened name the step.
  await expect(page.getByRole('complementary', { name: 'Step settings' }).getByRole('heading', { level: 2 })).toContainText('ko')

  // The move is one undo step: back where it was, and nothing left unsaved.
  await page.keyboard.press('Control+z')
  await expect(page.getByText('· unsaved')).toBeHidden()
  await expect.poll(beside).toBe(placed)
  await expect(count).toHaveText(problems!)
})

test('a step\'s settings follow the graph while open: a connection made adds what the step can read and re-run', async ({ page, request }) => {
  await page.goto(`/workflows/${await created(request, GATE)}`)
  await page.getByTestId('node-again').click()
  const side = page.getByRole('complementary', { name: 'Step settings' })
  const target = side.getByLabel('Step to re-run', { exact: true })
  await expect(target.locator('option')).toHaveText(['No step leads into this retry yet'])

  await connect(page, 'judge', 'again')
  await expect(page.locator('.vue-flow__edge:not(.loop)')).toHaveCount(3)
  await page.getByTestId('node-again').click()
  await expect(target.locator('option')).toHaveText(['Choose a step before this one', 'in (input)', 'draft (llm)', 'judge (evaluator)'])

  // The output reads the judge once it comes after it: the `{{` completion offers the judge's fields,
  // and its problem goes.
  await page.getByTestId('node-ko').click()
  const value = side.getByLabel('Value', { exact: true })
  await value.fill('')
  await value.pressSequentially('{{steps.ju')
  const listbox = side.getByRole('listbox', { name: 'References for Value' })
  await expect(listbox.getByRole('option')).toHaveCount(0)
  await value.press('Escape')
  await connect(page, 'judge', 'ko')
  await page.getByTestId('node-ko').click()
  await value.fill('')
  await value.pressSequentially('{{steps.ju')
  await expect(listbox.getByRole('option').first()).toContainText('steps.judge')
  await value.fill('{{steps.judge.passed}}')
  await value.blur()
  await expect(page.getByTestId('problems-ko')).toBeHidden()
})
