import { expect, test, type Locator, type Page } from '@playwright/test'

/**
 * The fitted view keeps steps readable rather than fitting a wide workflow, so a step can lie
 * beyond the canvas's edge: zoom out with the canvas's button, as a person would, until every
 * locator is inside the canvas.
 */
export async function zoomOutUntilVisible(page: Page, locators: Locator[], margin = 0) {
  const pane = (await page.locator('.vue-flow').first().boundingBox())!
  const inside = (b: { x: number, y: number, width: number, height: number } | null) =>
    !!b && b.x >= pane.x + margin && b.y >= pane.y + margin && b.x + b.width <= pane.x + pane.width - margin && b.y + b.height <= pane.y + pane.height - margin
  for (let i = 0; i < 8; i++) {
    const boxes = await Promise.all(locators.map(l => l.boundingBox()))
    if (boxes.every(inside)) return
    await page.getByRole('button', { name: 'Zoom out', exact: true }).click()
    await page.waitForTimeout(200)
  }
}

/**
 * Where the locators are once the view stands still: after a layout, a fit or a zoom the view
 * glides to its place, and a handle measured mid-glide is not where the pointer would find it.
 */
export async function settledBoxes(page: Page, locators: Locator[]) {
  const key = (boxes: Array<{ x: number, y: number } | null>) => boxes.map(b => (b ? `${Math.round(b.x)},${Math.round(b.y)}` : '-')).join(' ')
  let boxes = await Promise.all(locators.map(l => l.boundingBox()))
  for (let i = 0; i < 40; i++) {
    await page.waitForTimeout(50)
    const now = await Promise.all(locators.map(l => l.boundingBox()))
    if (key(now) === key(boxes)) return now
    boxes = now
  }
  return boxes
}

/** How near the canvas's edge a dragged connection pans the view, with room to spare (Vue Flow pans within 40 px). */
const AUTO_PAN_MARGIN = 48

/** Whether the handle is what the pointer meets at its centre: not under the minimap, the canvas's buttons or another step. */
async function reachable(handle: Locator) {
  return handle.evaluate((el) => {
    const box = el.getBoundingClientRect()
    const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2)
    return !!top && (top === el || el.contains(top))
  })
}

/** Drags from a node's output handle (a branch's, when given) to another node's input handle. */
export async function connect(page: Page, from: string, to: string, branch?: string) {
  await page.waitForTimeout(150)
  const handle = branch ? `.vue-flow__handle.source[data-handleid="${branch}"]` : '.vue-flow__handle.source'
  const source = page.locator(`.vue-flow__node[data-id="${from}"] ${handle}`).first()
  const target = page.locator(`.vue-flow__node[data-id="${to}"] .vue-flow__handle.target`).first()
  // The connections drawn, by name: a new one, or a retry's loop turned to another step, changes them.
  const drawn = () => page.locator('.vue-flow__edge').evaluateAll(els => els.map(e => e.getAttribute('aria-label')).sort().join('\n'))
  const before = await drawn()
  for (let attempt = 1; ; attempt++) {
    // Clear of the canvas's edges: a connection dragged near one pans the view (Vue Flow's auto-pan), moving the target away.
    await zoomOutUntilVisible(page, [source, target], AUTO_PAN_MARGIN)
    const [a, b] = (await settledBoxes(page, [source, target])) as Array<{ x: number, y: number, width: number, height: number }>
    const covered = !(await reachable(source)) ? from : !(await reachable(target)) ? to : undefined
    if (covered) throw new Error(`connect(${from} → ${to}): the handle of "${covered}" is covered at its centre, so a pointer could not reach it`)
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2)
    await page.mouse.down()
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 })
    await page.waitForTimeout(100)
    await page.mouse.up()
    // Made, or refused with its reason beside it: either way the drag reached the editor.
    const settled = await expect.poll(async () => (await drawn()) !== before || (await page.getByTestId('connection-refused').isVisible()), { timeout: 2_000 })
      .toBe(true).then(() => true, () => false)
    if (settled) return
    // A drag the pointer did not complete (the view moved under it): once more, and say so in the report.
    if (attempt === 2) throw new Error(`connect(${from} → ${to}): no connection was made and none refused after ${attempt} drags`)
    test.info().annotations.push({ type: 'connect-retried', description: `${from} → ${to}: the first drag made no connection` })
  }
}

/** Fills a field and commits it (the editor commits on change). */
export async function setField(page: Page, label: string, value: string) {
  const field = page.getByLabel(label, { exact: true })
  await field.fill(value)
  await field.press('Tab')
}

/** Types into a reference field until the completion list offers `path`, then picks it with Enter. */
export async function completeReference(page: Page, label: string, typed: string, path: string) {
  const field = page.getByLabel(label, { exact: true })
  await field.click()
  await field.pressSequentially(typed)
  const list = page.getByRole('listbox', { name: `References for ${label}` })
  const option = list.getByRole('option', { name: new RegExp(`^\\{\\{${path.replace(/[.[\]]/g, '\\$&')}\\}\\}`) })
  await option.waitFor()
  while ((await option.getAttribute('aria-selected')) !== 'true') await field.press('ArrowDown')
  await field.press('Enter')
  await field.press('Tab')
}

/** Chooses a step's model: from the list the server offers, or typed as another model's name when it is not listed. */
export async function chooseModel(page: Page, label: string, model: string) {
  const select = page.getByLabel(label, { exact: true })
  const offered = await select.locator('option').evaluateAll(options => options.map(o => (o as HTMLOptionElement).value))
  if (offered.includes(model)) {
    await select.selectOption(model)
    return
  }
  await select.selectOption({ label: 'Another model (type its name)…' })
  await setField(page, `${label} name`, model)
}

/** From the workflow list: New workflow, named in its dialog, opened in the editor. */
export async function newWorkflow(page: Page, name = 'Test workflow') {
  await page.getByRole('button', { name: 'New workflow' }).click()
  const field = page.getByRole('dialog', { name: 'New workflow' }).getByLabel('Name')
  await field.fill(name)
  await field.press('Enter')
  await page.waitForURL(/\/workflows\/[\w-]+$/)
}

/** Opens a template as a new workflow from the gallery and runs it from the toolbar until it succeeds. */
export async function runTemplate(page: Page, template: string) {
  await page.goto('/')
  await page.getByTestId(`template-${template}`).click()
  await expect(page.getByTestId('node-judge')).toBeVisible()
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await page.getByRole('button', { name: 'Start run' }).click()
  await expect(page.getByTestId('run-status')).toHaveText('succeeded', { timeout: 15_000 })
}
