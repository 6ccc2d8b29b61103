import { expect, test, type Page } from '@playwright/test'
import { newWorkflow } from './helpers'

const SIZES = [{ width: 1280, height: 720 }, { width: 1440, height: 900 }] as const
const THEMES = ['light', 'dark'] as const
const TEMPLATES = ['quality-gate', 'feedback-loop', 'ab-test'] as const
const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/e2e/look-${name}.png` })

/** The canvas's zoom, as Vue Flow applies it to the pane that holds the steps. */
async function zoomOf(page: Page): Promise<number> {
  return page.locator('.vue-flow__transformationpane').evaluate(el => new DOMMatrixReadOnly(getComputedStyle(el).transform).a)
}

/**
 * Every step's title, handles and branch labels as rendered: their CSS size times the zoom, and
 * the size the browser actually paints (bounding box), the smaller of each.
 */
async function renderedSizes(page: Page) {
  const zoom = await zoomOf(page)
  return page.evaluate((z) => {
    const px = (value: string) => Number.parseFloat(value)
    const nodes = [...document.querySelectorAll<HTMLElement>('.vue-flow__node-step')]
    return {
      zoom: z,
      nodes: nodes.length,
      titles: nodes.map(n => px(getComputedStyle(n.querySelector('.title')!).fontSize) * z),
      handles: [...document.querySelectorAll<HTMLElement>('.vue-flow__node-step .vue-flow__handle')]
        .map(h => Math.min(px(getComputedStyle(h).width) * z, h.getBoundingClientRect().width, h.getBoundingClientRect().height)),
      branches: [...document.querySelectorAll<HTMLElement>('.vue-flow__node-step .branch')].map(b => px(getComputedStyle(b).fontSize) * z),
    }
  }, zoom)
}

async function openTemplate(page: Page, id: string) {
  await page.goto('/')
  await page.getByTestId(`template-${id}`).click()
  await expect(page.locator('.vue-flow__node-step').first()).toBeVisible()
  // The fitted view is set once the steps are measured.
  await expect.poll(() => zoomOf(page)).not.toBe(1)
  await page.waitForTimeout(300)
}

test.describe('readable at the fitted zoom', () => {
  for (const id of TEMPLATES) {
    test(`template ${id} at 1280×720: titles >= 13 px, handles >= 10 px, branch labels >= 10 px as rendered`, async ({ page }) => {
      await page.setViewportSize({ width: 1280, height: 720 })
      await openTemplate(page, id)
      const sizes = await renderedSizes(page)
      expect(sizes.nodes).toBeGreaterThan(3)
      for (const title of sizes.titles) expect(title, `a title at zoom ${sizes.zoom}`).toBeGreaterThanOrEqual(13)
      for (const handle of sizes.handles) expect(handle, `a handle at zoom ${sizes.zoom}`).toBeGreaterThanOrEqual(10)
      for (const branch of sizes.branches) expect(branch, `a branch label at zoom ${sizes.zoom}`).toBeGreaterThanOrEqual(10)
      // The first step is in view: a workflow wider than the view shows its start and pans.
      await expect(page.getByTestId('node-in')).toBeInViewport()
      // The fit button keeps to the same floor.
      await page.getByRole('button', { name: 'Zoom out' }).click()
      await page.getByRole('button', { name: 'Zoom out' }).click()
      expect(await zoomOf(page)).toBeLessThan(sizes.zoom)
      await page.getByRole('button', { name: 'Fit the workflow in view' }).click()
      await expect.poll(() => zoomOf(page)).toBeCloseTo(sizes.zoom, 3)
    })
  }

  for (const size of SIZES) {
    test(`at ${size.width}×${size.height} the quality gate shows whole until a step is selected; the step selected stays in view beside its settings`, async ({ page }) => {
      await page.setViewportSize(size)
      await openTemplate(page, 'quality-gate')
      const canvasBox = async () => (await page.locator('.vue-flow').boundingBox())!
      const inside = async (id: string) => {
        const canvas = await canvasBox()
        const box = (await page.locator(`.vue-flow__node[data-id="${id}"]`).boundingBox())!
        return box.x >= canvas.x && box.y >= canvas.y && box.x + box.width <= canvas.x + canvas.width && box.y + box.height <= canvas.y + canvas.height
      }
      // Nothing selected: no settings column; the canvas has the room, and every step shows whole.
      await expect(page.getByRole('complementary', { name: 'Step settings' })).toHaveCount(0)
      await expect(page.getByText('Select a step to configure it')).toBeVisible()
      const ids = await page.locator('.vue-flow__node').evaluateAll(nodes => nodes.map(n => n.getAttribute('data-id')!))
      expect(ids.length).toBe(7)
      for (const id of ids) expect(await inside(id), `step ${id} whole in view`).toBe(true)
      const wide = (await canvasBox()).width

      // The rightmost step selected: its settings open beside the canvas, and the view follows it.
      await page.locator('.vue-flow__node[data-id="ko"]').click()
      await expect(page.getByRole('complementary', { name: 'Step settings' })).toBeVisible()
      await expect(page.getByText('Select a step to configure it')).toHaveCount(0)
      expect((await canvasBox()).width).toBeLessThan(wide - 300)
      await expect.poll(() => inside('ko'), { message: 'the selected step is panned back into the narrower view' }).toBe(true)
      await shot(page, `selected-rightmost-${size.width}x${size.height}`)

      // A click on the empty canvas closes the settings and gives the room back.
      await page.locator('.vue-flow__pane').click({ position: { x: 20, y: 20 } })
      await expect(page.getByRole('complementary', { name: 'Step settings' })).toHaveCount(0)
      await expect.poll(async () => (await canvasBox()).width).toBeCloseTo(wide, 0)
    })
  }

  test('a workflow too wide for the view is panned at the readable zoom, not shrunk', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 720 })
    await page.goto('/')
    const nodes = [{ id: 'in', type: 'input', position: { x: 0, y: 100 } },
      ...Array.from({ length: 14 }, (_, i) => ({ id: `step_${i}`, type: 'llm', config: { model: 'local:heuristic', prompt: 'hi' }, position: { x: 240 * (i + 1), y: 100 } }))]
    const edges = nodes.slice(1).map((n, i) => ({ from: nodes[i]!.id, to: n.id }))
    const created = await page.request.post('/api/workflows', { data: { name: 'Long chain', nodes, edges } })
    await page.goto(`/workflows/${(await created.json()).id}`)
    await expect(page.getByTestId('node-step_0')).toBeVisible()
    await expect.poll(() => zoomOf(page)).not.toBe(1)
    const sizes = await renderedSizes(page)
    expect(sizes.zoom).toBeCloseTo(13 / 15, 2)
    for (const title of sizes.titles) expect(title).toBeGreaterThanOrEqual(13)
    await expect(page.getByTestId('node-in')).toBeInViewport()
    await expect(page.getByTestId('node-step_13')).not.toBeInViewport()
    await shot(page, 'long-chain-1280x720')
  })
})

test.describe('the editor takes the window', () => {
  for (const size of SIZES) {
    test(`at ${size.width}×${size.height} the canvas and the run panel fill the window; the panel resizes, folds, and keeps that over a reload`, async ({ page }) => {
      await page.setViewportSize(size)
      await openTemplate(page, 'quality-gate')
      // With no run to show, the panel starts folded to its bar; opened, it shows its empty state.
      await expect(page.getByTestId('runs-empty')).toHaveCount(0)
      expect((await page.getByRole('region', { name: 'Runs' }).boundingBox())!.height).toBeLessThan(50)
      await page.getByRole('button', { name: 'Show the run panel' }).click()
      const stage = (await page.locator('.stage').boundingBox())!
      const runs = (await page.getByRole('region', { name: 'Runs' }).boundingBox())!
      // No empty band below the run panel, and the page itself never scrolls.
      expect(size.height - (runs.y + runs.height)).toBeLessThanOrEqual(16)
      expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(size.height)
      expect(stage.height).toBeGreaterThan(size.height * 0.45)
      expect(stage.width).toBeGreaterThan(size.width * 0.55)
      await expect(page.getByTestId('runs-empty')).toContainText('Run to see results here')

      // Dragged up by 100 px: the panel is 100 px taller, the canvas 100 px shorter.
      const handle = page.getByRole('separator', { name: 'Resize the run panel' })
      const h = (await handle.boundingBox())!
      await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2)
      await page.mouse.down()
      await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2 - 100, { steps: 5 })
      await page.mouse.up()
      const taller = (await page.getByRole('region', { name: 'Runs' }).boundingBox())!
      expect(taller.height).toBeCloseTo(runs.height + 100, -1)
      expect((await page.locator('.stage').boundingBox())!.height).toBeCloseTo(stage.height - 100, -1)
      // From the keyboard: arrow down makes it shorter.
      await handle.focus()
      await page.keyboard.press('ArrowDown')
      const shorter = Number(await handle.getAttribute('aria-valuenow'))
      expect(shorter).toBe(Math.round(taller.height) - 24)
      await shot(page, `resized-${size.width}x${size.height}`)

      // Folded: only its tab bar is left, and the canvas takes the room.
      await page.getByRole('button', { name: 'Hide the run panel' }).click()
      const folded = (await page.getByRole('region', { name: 'Runs' }).boundingBox())!
      expect(folded.height).toBeLessThan(50)
      expect((await page.locator('.stage').boundingBox())!.height).toBeGreaterThan(stage.height + 100)
      await page.reload()
      await expect(page.getByTestId('node-judge')).toBeVisible()
      await expect(page.getByRole('button', { name: 'Show the run panel' })).toBeVisible()
      expect((await page.getByRole('region', { name: 'Runs' }).boundingBox())!.height).toBeLessThan(50)
      await page.getByRole('button', { name: 'Show the run panel' }).click()
      expect(Number(await page.getByRole('separator', { name: 'Resize the run panel' }).getAttribute('aria-valuenow'))).toBe(shorter)
    })
  }
})

test.describe('one visual language', () => {
  for (const theme of THEMES) {
    test(`${theme} theme: each step type has its colour and icon, a card says what it does, buttons are styled, empty states point on`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: theme })
      await page.setViewportSize({ width: 1440, height: 900 })
      await page.goto('/')
      await expect(page.getByTestId('template-quality-gate')).toBeVisible()
      await shot(page, `home-${theme}-1440x900`)
      await newWorkflow(page)
      await expect(page.getByTestId('empty-canvas')).toContainText('Add your first step')
      await page.getByRole('button', { name: 'Show the run panel' }).click()
      await expect(page.getByTestId('runs-empty')).toContainText('Run to see results here')
      await shot(page, `fresh-canvas-${theme}-1440x900`)
      for (const type of ['llm', 'evaluator', 'condition', 'retry', 'output']) await page.getByTestId(`add-${type}`).click()
      await expect(page.getByTestId('empty-canvas')).toHaveCount(0)
      const looks = await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('.vue-flow__node-step .step')].map(step => ({
        type: [...step.classList].find(c => c.startsWith('type-')),
        tile: getComputedStyle(step.querySelector('.tile')!).backgroundColor,
        icon: step.querySelectorAll('.tile svg path').length,
        kind: step.querySelector('.kind')!.textContent!.trim(),
        summary: step.querySelector('.summary')?.textContent?.trim(),
      })))
      expect(looks.map(l => l.type).sort()).toEqual(['type-condition', 'type-evaluator', 'type-input', 'type-llm', 'type-output', 'type-retry'])
      expect(new Set(looks.map(l => l.tile)).size, 'a colour per step type').toBe(6)
      for (const look of looks) expect(look.icon, `${look.type} has an icon`).toBeGreaterThan(0)
      expect(looks.find(l => l.type === 'type-evaluator')!.summary).toBe('scoring')
      expect(looks.find(l => l.type === 'type-llm')!.summary).toBe('no model set')
      await shot(page, `step-types-${theme}-1440x900`)

      // No browser-default grey button anywhere in the editor; buttons share one look.
      const defaults = await page.evaluate(() => [...document.querySelectorAll('button')]
        .filter(b => b.offsetParent && getComputedStyle(b).backgroundColor === 'rgb(239, 239, 239)').map(b => b.textContent))
      expect(defaults).toEqual([])
      const radius = await page.getByRole('button', { name: 'Run', exact: true }).evaluate(b => getComputedStyle(b).borderRadius)
      expect(radius).not.toBe('0px')
      // Icon buttons have their tooltip.
      for (const name of ['Undo', 'Redo', 'Zoom in', 'Zoom out']) await expect(page.getByRole('button', { name, exact: true })).toHaveAttribute('title', /\w/)

      // The theme follows the system: dark pages on a dark setting.
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
      const channels = background.match(/\d+/g)!.slice(0, 3).map(Number)
      if (theme === 'dark') expect(Math.max(...channels)).toBeLessThan(60)
      else expect(Math.min(...channels)).toBeGreaterThan(200)

      // A toast says the save happened, next to the Save button, and fades.
      await page.keyboard.press('Control+s')
      const toast = page.locator('.toolbar .message')
      await expect(toast).toContainText('Saved version 2')
      await expect(toast).toHaveCSS('opacity', '1')
      const save = (await page.getByRole('button', { name: 'Save', exact: true }).boundingBox())!
      const near = (await toast.boundingBox())!
      expect(near.y - (save.y + save.height)).toBeLessThan(20)
      expect(Math.abs(near.x + near.width - (save.x + save.width))).toBeLessThan(200)
      await shot(page, `saved-toast-${theme}-1440x900`)
      await expect(toast).toHaveCSS('opacity', '0', { timeout: 8000 })
    })
  }

  test('the template cards say what each step does', async ({ page }) => {
    test.setTimeout(120_000)
    await openTemplate(page, 'quality-gate')
    const summary = (id: string) => page.getByTestId(`node-${id}`).locator('.summary')
    await expect(summary('in')).toHaveText('fields: question')
    await expect(summary('draft')).toHaveText('openai:gpt-4o-mini')
    await expect(summary('judge')).toHaveText('criteria · pass ≥ 0.6')
    await expect(summary('check')).toHaveText('judge.passed = true')
    await expect(summary('again')).toHaveText('retry → Draft · ≤ 3 runs')
    await expect(summary('ok')).toHaveText('verdict pass')
    for (const size of SIZES) {
      for (const theme of THEMES) {
        await page.setViewportSize(size)
        await page.emulateMedia({ colorScheme: theme })
        for (const id of TEMPLATES) {
          await openTemplate(page, id)
          await shot(page, `template-${id}-${theme}-${size.width}x${size.height}`)
        }
      }
    }
  })
})

test.describe('the evaluator form', () => {
  for (const size of SIZES) {
    test(`at ${size.width}×${size.height} each evaluation type's form reads in the settings column, without a sideways scroll`, async ({ page }) => {
      test.setTimeout(60_000)
      await page.setViewportSize(size)
      await openTemplate(page, 'quality-gate')
      await page.getByTestId('node-judge').click()
      const side = page.getByRole('complementary', { name: 'Step settings' })
      const type = side.getByLabel('Evaluation type')
      const types = await type.locator('option').evaluateAll(options => options.map(o => (o as HTMLOptionElement).value))
      expect(types).toEqual(expect.arrayContaining(['scoring', 'criteria', 'comparison', 'rubric', 'metrics', 'scorers', 'trace']))
      for (const name of types) {
        await type.selectOption(name)
        // A type that does not use some of the step's settings asks before removing them.
        const confirm = page.getByRole('dialog', { name: /^Switch to / })
        if (await confirm.waitFor({ timeout: 1_000 }).then(() => true, () => false)) await confirm.getByRole('button', { name: 'Remove and switch' }).click()
        await expect(type).toHaveValue(name)
        await expect(side.getByRole('heading', { name: 'Judge · Evaluator' })).toBeVisible()
        expect(await side.evaluate(el => el.scrollWidth - el.clientWidth), `${name}: no sideways scroll`).toBeLessThanOrEqual(0)
        await shot(page, `evaluator-${name}-${size.width}x${size.height}`)
      }
    })
  }
})

test.describe('run data on the step', () => {
  for (const theme of THEMES) {
    test(`${theme} theme: after a run each step shows status and time, the judge its score, edges the branch taken; a step opened shows its last input and output`, async ({ page, context }) => {
      test.setTimeout(60_000)
      await context.grantPermissions(['clipboard-read', 'clipboard-write'])
      await page.emulateMedia({ colorScheme: theme })
      await page.setViewportSize({ width: 1440, height: 900 })
      await openTemplate(page, 'quality-gate')
      await page.getByRole('button', { name: 'Run', exact: true }).click()
      await page.getByRole('button', { name: 'Start run' }).click()
      await expect(page.getByTestId('run-verdict')).toHaveText('pass', { timeout: 15_000 })

      // Each step's latest attempt: the retry ran once, then was skipped when the second answer passed.
      for (const id of ['in', 'draft', 'judge', 'check', 'ok']) {
        await expect(page.getByTestId(`status-${id}`)).toContainText('succeeded')
        await expect(page.getByTestId(`time-${id}`)).toHaveText(/^(<1|\d+(\.\d)?) (ms|s)$/)
      }
      await expect(page.getByTestId('status-draft')).toContainText('attempt 2')
      // The retry ran in attempt 1 only: it reads as what it did then, not as skipped.
      await expect(page.getByTestId('status-again')).toHaveText('retried · attempt 1')
      await expect(page.getByTestId('status-ko')).toContainText('skipped')
      await expect(page.getByTestId('score-judge')).toHaveText(/^(0|1)\.\d\d pass$/)

      // The edges that carried data, coloured by branch; the one never taken keeps the plain colour.
      const edge = (id: string) => page.locator(`.edge-layer .vue-flow__edge[data-id="${id}"]`)
      await expect(edge('check->ok:true')).toHaveAttribute('data-carried', 'true')
      await expect(edge('check->again:false')).toHaveAttribute('data-carried', 'false')
      await expect(edge('in->draft:')).toHaveAttribute('data-carried', 'out')
      await expect(edge('loop:again')).toHaveAttribute('data-carried', 'loop')
      await expect(edge('again->ko:exhausted')).not.toHaveAttribute('data-carried', /.*/)
      const stroke = (id: string) => edge(id).locator('.vue-flow__edge-path').evaluate(p => getComputedStyle(p).stroke)
      const [taken, yes, no, never] = await Promise.all([stroke('in->draft:'), stroke('check->ok:true'), stroke('check->again:false'), stroke('again->ko:exhausted')])
      expect(new Set([taken, yes, no, never]).size).toBe(4)
      await shot(page, `run-canvas-${theme}-1440x900`)

      // The judge opened: its last input and output beside its settings, with its result card.
      await page.getByTestId('node-judge').click()
      const side = page.getByRole('complementary', { name: 'Step settings' })
      const data = side.getByTestId('step-run-data')
      await expect(data).toContainText('Last run')
      // One line until opened, so the settings stay in view.
      await expect(data.getByTestId('run-data-output')).toBeHidden()
      await data.getByText('Last run', { exact: true }).click()
      await expect(data.getByTestId('evaluator-result')).toContainText('passed')
      await expect(data.getByTestId('run-data-input').locator('table')).toContainText('evaluation_type')
      await expect(data.getByTestId('run-data-output').locator('table')).toContainText('overall_score')
      await data.getByRole('button', { name: 'JSON', exact: true }).click()
      await expect(data.getByTestId('run-data-output').locator('pre')).toContainText('"overall_score"')
      await data.getByRole('button', { name: 'Copy the output as JSON' }).click()
      await expect(data.getByRole('status')).toHaveText('The output was copied.')
      const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as { passed: boolean }
      expect(copied.passed).toBe(true)
      // Two attempts: the first can be looked at too.
      await data.getByLabel('Attempt').selectOption('1')
      await expect(data.getByTestId('run-data-output').locator('pre')).toContainText('"passed": false')
      await data.getByRole('button', { name: 'Table', exact: true }).click()
      await shot(page, `run-step-opened-${theme}-1440x900`)

      // The draft ran from its pinned outputs: marked so.
      await page.getByTestId('node-draft').click()
      await expect(side.getByTestId('run-data-pinned')).toBeVisible()
      await expect(side.getByTestId('run-data-output')).toContainText('Forgot password')
      await page.setViewportSize({ width: 1280, height: 720 })
      await shot(page, `run-step-opened-${theme}-1280x720`)
    })
  }
})
