import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { runTemplate } from './helpers'

/** Long names, ids and descriptions are shown whole: wrapped or given room, the full text on hover and for screen readers. */

const LONG_NAME = 'Summarise the customer feedback for the weekly product report'
const LONG_ID = 'summarise_customer_feedback_weekly'
const DESCRIPTION = 'The answer names every product the customer mentions, quotes the complaint word for word and proposes one concrete next step.'

const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`) })
/** Serious and critical WCAG A/AA findings within a part of the page. */
async function violations(page: Page, selector: string) {
  const { violations } = await new AxeBuilder({ page }).include(selector).withTags(['wcag2a', 'wcag2aa']).analyze()
  return violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')}`)
}
/** The field shows all of its text: nothing scrolled out of sight either way. */
const showsWhole = (field: Locator) => field.evaluate(el => el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1)

async function openWorkflow(page: Page, nodes: unknown[], edges: unknown[] = []) {
  const created = await page.request.post('/api/workflows', { data: { name: 'Long texts', nodes, edges } })
  expect(created.ok()).toBe(true)
  const { id } = await created.json() as { id: string }
  await page.goto(`/workflows/${id}`)
  await expect(page.locator('.vue-flow__node').first()).toBeVisible()
}
const input = { id: 'in', type: 'input', config: { fields: { question: { type: 'string' } } }, position: { x: 0, y: 0 } }

for (const theme of ['light', 'dark'] as const) {
  test.describe(`${theme} theme`, () => {
    test.beforeEach(async ({ page }) => {
      await page.emulateMedia({ colorScheme: theme })
    })

    test('a step card with a long name and id shows them whole: wrapped, on hover and in its accessible name', async ({ page }) => {
      await openWorkflow(page, [
        input,
        { id: LONG_ID, type: 'llm', name: LONG_NAME, config: { model: 'local:heuristic', prompt: '{{input.question}}' }, position: { x: 240, y: 0 } },
        { id: 'judge_the_weekly_summary_quality', type: 'evaluator', config: { evaluation_type: 'scoring', model: 'local:heuristic', content: `{{steps.${LONG_ID}.text}}`, pass_threshold: 0.5 }, position: { x: 480, y: 0 } },
      ], [{ from: 'in', to: LONG_ID }, { from: LONG_ID, to: 'judge_the_weekly_summary_quality' }])
      const card = page.getByTestId(`node-${LONG_ID}`)
      // On hover: the name, and the type with the id.
      await expect(card.locator('.titles')).toHaveAttribute('title', `${LONG_NAME}\nLLM · ${LONG_ID}`)
      await expect(page.getByTestId('node-judge_the_weekly_summary_quality').locator('.titles')).toHaveAttribute('title', 'judge_the_weekly_summary_quality\nEvaluator')
      // On the card: a long name or id wraps (to three lines) rather than ending after a dozen characters.
      const judge = page.getByTestId('node-judge_the_weekly_summary_quality')
      expect((await card.locator('.title').boundingBox())!.height).toBeGreaterThanOrEqual(3 * 19)
      expect((await judge.locator('.title').boundingBox())!.height).toBeGreaterThanOrEqual(3 * 19)
      expect(await showsWhole(judge.locator('.title'))).toBe(true)
      // For screen readers: the focusable card is named once, with the whole name, type and id.
      const node = page.locator(`.vue-flow__node[data-id="${LONG_ID}"]`)
      await expect(node).toHaveAccessibleName(`LLM step ${LONG_NAME} (${LONG_ID})`)
      await expect(page.locator(`.vue-flow__node[data-id="judge_the_weekly_summary_quality"]`)).toHaveAccessibleName('Evaluator step judge_the_weekly_summary_quality')
      await expect(card.getByText(LONG_NAME)).toHaveCount(1)
      expect(await card.locator('[aria-label], [aria-hidden="false"]').evaluateAll(list => list.map(el => el.getAttribute('aria-label')).filter(l => l?.includes('summarise')))).toEqual([])
      await shot(page, `long-card-${theme}`)
      expect(await violations(page, '.vue-flow__nodes')).toEqual([])
    })

    test('criterion and rubric grade descriptions have room: a 120-character description shows whole', async ({ page }) => {
      await openWorkflow(page, [
        input,
        { id: 'judge', type: 'evaluator', config: {
          evaluation_type: 'rubric', model: 'local:heuristic', content: '{{input.question}}', pass_threshold: 0.5,
          criteria: [{ name: 'accuracy', description: DESCRIPTION, weight: 1 }],
          rubric: { grades: [{ grade: 'A', min_score: 0.9, description: DESCRIPTION }, { grade: 'F', min_score: 0, description: 'Anything else.' }] },
        }, position: { x: 240, y: 0 } },
      ], [{ from: 'in', to: 'judge' }])
      await page.getByTestId('node-judge').click()
      const side = page.getByRole('complementary', { name: 'Step settings' })
      const criterion = side.getByLabel('Criterion 1 description', { exact: true })
      const grade = side.getByLabel('Grade 1 description', { exact: true })
      for (const field of [criterion, grade]) {
        await field.scrollIntoViewIfNeeded()
        await expect(field).toHaveValue(DESCRIPTION)
        expect((await field.boundingBox())!.width, await field.getAttribute('aria-label') ?? '').toBeGreaterThanOrEqual(220)
        expect(await showsWhole(field), await field.getAttribute('aria-label') ?? '').toBe(true)
      }
      // A description typed grows its field; what was typed is kept.
      await grade.fill(`${DESCRIPTION} And one more sentence, to be sure the field grows with it.`)
      await grade.press('Tab')
      expect(await showsWhole(grade)).toBe(true)
      await expect(side.getByLabel('Grade 1 description', { exact: true })).toHaveValue(/to be sure the field grows with it\.$/)
      await side.getByLabel('Grade 1 description', { exact: true }).scrollIntoViewIfNeeded()
      await shot(page, `descriptions-${theme}`)
      expect(await violations(page, '.side')).toEqual([])
    })

    test('scorer presets say which need JSON input; a custom list starts with a text scorer', async ({ page }) => {
      await openWorkflow(page, [
        input,
        { id: 'judge', type: 'evaluator', config: { evaluation_type: 'scorers', content: '{{input.question}}', pass_threshold: 0.5, scorers: [{ type: 'contains', weight: 1, options: { values: ['a'] } }] }, position: { x: 240, y: 0 } },
      ], [{ from: 'in', to: 'judge' }])
      await page.getByTestId('node-judge').click()
      const scorers = page.getByTestId('scorer-list')
      const preset = scorers.getByLabel('Scorer preset')
      // The document-edit presets are grouped under what they need.
      const groups = await preset.locator('optgroup').evaluateAll(list => list.map(g => ({ label: g.getAttribute('label'), options: [...g.querySelectorAll('option')].map(o => o.value) })))
      expect(groups).toEqual([{ label: 'Document edits · needs JSON input', options: ['standard', 'strict', 'operation-focused'] }])
      // The scorer types: text first, then JSON, then document edits, each group labelled.
      const types = await scorers.getByLabel('Scorer 1 type').locator('optgroup').evaluateAll(list => list.map(g => g.getAttribute('label')))
      expect(types).toEqual(['Text', 'JSON · needs JSON input', 'Document edits · needs JSON input'])
      await scorers.getByRole('button', { name: 'Add scorer' }).click()
      await expect(scorers.getByLabel('Scorer 2 type')).toHaveValue('exact-match')
      // A preset chosen says what it needs, in words.
      await preset.selectOption('strict')
      await expect(scorers.getByTestId('scorer-input-note')).toHaveText(/^Needs JSON input: the output an edit \{ "operations": \[\.\.\.\] \}/)
      await shot(page, `scorer-presets-${theme}`)
      expect(await violations(page, '.side')).toEqual([])
    })

    test('a document-edit preset chosen for a text Actual output says it does not fit, and stops once the output is JSON', async ({ page }) => {
      await openWorkflow(page, [
        { ...input, config: { fields: { question: { type: 'string' }, edit: { type: 'object' } } } },
        { id: 'draft', type: 'llm', name: 'Draft', config: { model: 'local:heuristic', prompt: '{{input.question}}' }, position: { x: 240, y: 0 } },
        { id: 'judge', type: 'evaluator', config: { evaluation_type: 'scorers', actual: '{{steps.draft.text}}', expected: '{{input.question}}', scorers: [{ type: 'contains', weight: 1, options: { values: ['a'] } }] }, position: { x: 480, y: 0 } },
      ], [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }])
      await page.getByTestId('node-judge').click()
      const scorers = page.getByTestId('scorer-list')
      const misfit = scorers.getByTestId('scorer-content-misfit')
      // Text scorers on a text: nothing to say.
      await expect(scorers.getByLabel('Scorer 1 type')).toBeVisible()
      await expect(misfit).toHaveCount(0)
      await scorers.getByLabel('Scorer preset').selectOption('strict')
      await expect(misfit).toHaveText('Actual output is {{steps.draft.text}} (Draft (llm): string), a text: the strict preset scores it only if that text is JSON. Point Actual output at a JSON value, or choose text scorers (custom list).')
      await expect(misfit).toHaveAttribute('role', 'status')
      await misfit.scrollIntoViewIfNeeded()
      await shot(page, `scorer-misfit-${theme}`)
      expect(await violations(page, '.side')).toEqual([])
      // Written text that is not JSON cannot be scored at all.
      const actual = page.getByLabel('Actual output', { exact: true })
      await actual.fill('The answer is 4.')
      await actual.press('Tab')
      await expect(misfit).toHaveText(/^Actual output is written text, not JSON: the strict preset cannot score it\./)
      // An input declared an object is JSON: the preset fits; what it needs is still said.
      await actual.fill('{{input.edit}}')
      await actual.press('Tab')
      await expect(misfit).toHaveCount(0)
      await expect(scorers.getByTestId('scorer-input-note')).toHaveText(/^Needs JSON input/)
      // Back to the text with a custom list of text scorers: fits again.
      await actual.fill('{{steps.draft.text}}')
      await actual.press('Tab')
      await expect(misfit).toBeVisible()
      await scorers.getByLabel('Scorer preset').selectOption('')
      await expect(misfit).toHaveCount(0)
    })
  })
}

/** Text cut off with an ellipsis inside `selector` that has its whole text neither on hover nor elsewhere: what each says. */
const cutWithoutWhole = (page: Page, selector: string) => page.locator(selector).evaluateAll(roots => roots.flatMap(root => [...root.querySelectorAll<HTMLElement>('*')]
  .filter(el => getComputedStyle(el).textOverflow === 'ellipsis' && el.checkVisibility() && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1))
  .filter(el => !el.closest('[title]'))
  .map(el => `${el.className}: ${el.textContent?.trim().slice(0, 60)}`)))

test('at 1280×720, a finished run\'s cards, settings and inspector cut no text without its whole on hover', async ({ page }) => {
  await runTemplate(page, 'quality-gate')
  await page.getByTestId('node-judge').click()
  await expect(page.getByRole('complementary', { name: 'Step settings' })).toBeVisible()
  expect(await cutWithoutWhole(page, '.vue-flow__nodes, .side, .runs')).toEqual([])
  await shot(page, 'run-1280x720')
  // The {{ completion: what each reference is and its value in the last run, cut to a line, whole on hover.
  const field = page.getByLabel('Context', { exact: true })
  await field.click()
  await field.press('Control+End')
  await field.pressSequentially(' {{')
  const list = page.getByRole('listbox', { name: 'References for Context' })
  await expect(list.getByRole('option').first()).toBeVisible()
  expect(await cutWithoutWhole(page, '.reference-list')).toEqual([])
  await shot(page, 'completion-1280x720')
})
