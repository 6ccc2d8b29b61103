import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'

/** Importing an experiment before its workflow, its round's charts in both themes, and one primary button style. */
const EXPERIMENT_YAML = 'examples/experiment.yaml'
const REVIEWER_JSON = 'examples/reviewer.json'

async function violations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze()
  return violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')}`)
}

type Axes = Record<string, { min: number, max: number, ticks: string[], color: string }>
const axesOf = async (page: Page, chart: string): Promise<Axes> => JSON.parse((await page.getByTestId(chart).getAttribute('data-axes')) ?? 'null')
/** A CSS colour variable of the page's theme, as the hex or rgb text it is written in. */
const themeVar = (page: Page, name: string) => page.evaluate(n => getComputedStyle(document.documentElement).getPropertyValue(n).trim(), name)

/** WCAG contrast ratio of two colours given as #rrggbb. */
function contrast(a: string, b: string) {
  const lum = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map(i => parseInt(hex.slice(i, i + 2), 16) / 255).map(c => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!
  }
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p)
  return (x! + 0.05) / (y! + 0.05)
}

test('an experiment imported before its target workflow says to import the workflow first and imports it from there', async ({ page }) => {
  test.setTimeout(60_000)
  // The example, naming a workflow no other test stores (the suite's database is shared).
  const name = `Reviewer ${Date.now()}`
  const folder = mkdtempSync(join(tmpdir(), 'judgeflow-experiment-'))
  writeFileSync(join(folder, 'experiment.yaml'), readFileSync(EXPERIMENT_YAML, 'utf8').replace(/workflow_id: Reviewer/, `workflow_id: ${name}`))
  writeFileSync(join(folder, 'reviewer.json'), JSON.stringify({ ...JSON.parse(readFileSync(REVIEWER_JSON, 'utf8')), name }))
  await page.goto('/experiments')
  await page.getByLabel('Experiment file (JSON or YAML)').setInputFiles(join(folder, 'experiment.yaml'))
  const missing = page.getByTestId('missing-workflow')
  await expect(missing).toContainText(`Import the workflow “${name}” first`)
  await expect(missing).toContainText(`target.workflow_id: no workflow has the id or name "${name}"`)
  expect(await violations(page)).toEqual([])
  await page.screenshot({ path: 'test-results/e2e/experiment-missing-workflow-1280x720.png' })
  const chooser = page.waitForEvent('filechooser')
  await missing.getByRole('button', { name: 'Import the workflow file (reviewer.json)…' }).click()
  await (await chooser).setFiles(join(folder, 'reviewer.json'))
  // The workflow is stored, and the experiment with it.
  await expect(page.getByRole('heading', { name: 'Review prompt' })).toBeVisible()
  const experiment = await (await page.request.get(`/api/experiments/${page.url().split('/').pop()}`)).json()
  const workflows = await (await page.request.get('/api/workflows')).json() as Array<{ id: string, name: string }>
  expect(experiment.target.workflow_id).toBe(workflows.find(w => w.name === name)!.id)
})

test('the round\'s charts name each document on an integer axis, keep the rounds\' axis to a sensible range, and draw their text in the theme\'s colour', async ({ page }) => {
  test.setTimeout(90_000)
  const reviewer = await (await page.request.post('/api/workflows', { data: { ...JSON.parse(readFileSync(REVIEWER_JSON, 'utf8')), name: `Reviewer ${Date.now()}` } })).json()
  await page.goto('/experiments')
  await page.getByLabel('Experiment definition').fill(readFileSync(EXPERIMENT_YAML, 'utf8').replace(/workflow_id: Reviewer/, `workflow_id: ${reviewer.id}`))
  await page.getByRole('button', { name: 'Create experiment' }).click()
  await expect(page.getByRole('heading', { name: 'Review prompt' })).toBeVisible()
  await page.getByRole('button', { name: 'Run a round' }).click()
  await expect(page.getByTestId('recommendation')).toBeVisible({ timeout: 60_000 })
  await expect(page.getByTestId('chart-spread')).toHaveAttribute('data-axes', /.+/)

  const spread = await axesOf(page, 'chart-spread')
  // One tick per document, by its id; nothing between them, nothing before the first (its column starts half a column before it).
  expect(spread.x!.ticks).toEqual(['contract', 'api-spec'])
  expect(spread.x!.min).toBe(-0.5)
  expect(spread.y!.min).toBe(0)
  const rounds = await axesOf(page, 'chart-history')
  expect(rounds.x!.ticks).toEqual(['1'])
  // One point does not stretch the axis around itself.
  expect(rounds.y!.min).toBe(0)
  expect(rounds.y!.max).toBeGreaterThanOrEqual(1)
  expect(rounds.y!.ticks.every(t => /^-?\d+(\.\d+)?$/.test(t))).toBe(true)
  for (const axes of [spread, rounds]) expect(axes.x!.color).toBe(await themeVar(page, '--text'))
  await page.getByTestId('chart-spread').scrollIntoViewIfNeeded()
  await page.screenshot({ path: 'test-results/e2e/experiment-charts-light-1280x720.png' })

  // The system switches to dark: the charts follow without a reload, in a colour that reads on the dark surface.
  await page.emulateMedia({ colorScheme: 'dark' })
  const darkText = await themeVar(page, '--text')
  await expect.poll(async () => (await axesOf(page, 'chart-spread')).x!.color).toBe(darkText)
  await expect.poll(async () => (await axesOf(page, 'chart-history')).y!.color).toBe(darkText)
  expect(contrast(darkText, await themeVar(page, '--surface'))).toBeGreaterThanOrEqual(4.5)
  expect(await violations(page)).toEqual([])
  await page.screenshot({ path: 'test-results/e2e/experiment-charts-dark-1280x720.png' })
})

test('a workflow chosen as the target applies to an experiment file imported after it', async ({ page, request }) => {
  const summary = await (await request.post('/api/workflows', { data: {
    name: `Summary writer ${Date.now()}`,
    nodes: [
      { id: 'in', type: 'input', config: { fields: { text: { type: 'string', required: true } } } },
      { id: 'summarize', type: 'llm', config: { model: 'local:heuristic', prompt: 'Summarize {{input.text}}' }, pinned: ['A summary.'] },
    ],
    edges: [{ from: 'in', to: 'summarize' }],
  } })).json()
  await page.goto('/experiments')
  await page.getByTestId('experiment-target').selectOption(summary.id)
  await page.getByLabel('Experiment file (JSON or YAML)').setInputFiles(EXPERIMENT_YAML)
  await expect(page.getByRole('heading', { name: 'Review prompt' })).toBeVisible()
  const experiment = await (await request.get(`/api/experiments/${page.url().split('/').pop()}`)).json()
  // The file's step and field are not in this workflow: its first LLM step and first input field instead.
  expect(experiment.target).toMatchObject({ workflow_id: summary.id, node: 'summarize', input_field: 'text' })
})

test('every primary button has the one shared style, in both themes', async ({ page, request }) => {
  test.setTimeout(60_000)
  const dataset = await (await request.post('/api/datasets', { data: { name: `buttons ${Date.now()}`, format: 'csv', text: 'id,question\nq1,Why?\n' } })).json()
  const experiments = await (await request.get('/api/experiments')).json() as Array<{ id: string }>
  /** Each primary button's look, and the look the shared style gives. */
  const looks = () => page.evaluate(() => {
    const probe = document.createElement('button')
    probe.className = 'primary'
    document.body.append(probe)
    const look = (b: Element) => {
      const s = getComputedStyle(b)
      return [s.backgroundColor, s.color, s.paddingTop, s.paddingLeft, s.borderTopLeftRadius, s.borderTopWidth, s.fontWeight].join(' ')
    }
    const shared = look(probe)
    probe.remove()
    return { shared, buttons: [...document.querySelectorAll('button.primary')].map(b => `${b.textContent!.trim()}: ${look(b)}`) }
  })
  const pages: Array<[string, (() => Promise<void>)?]> = [
    ['/experiments'],
    ['/datasets'],
    [`/datasets/${dataset.id}`, async () => {
      await page.getByTestId('run-on-dataset').click()
      await expect(page.getByRole('dialog', { name: 'Run on a dataset' })).toBeVisible()
    }],
    [`/experiments/${experiments[0]!.id}`],
  ]
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    for (const [url, open] of pages) {
      await page.goto(url)
      await page.waitForLoadState('networkidle')
      if (open) await open()
      // Away from every button: a hovered one takes the hover colour.
      await page.mouse.move(0, 0)
      // The hover colour fades out (a short transition): measure after it.
      await page.waitForTimeout(400)
      const { shared, buttons } = await looks()
      expect(buttons.length, url).toBeGreaterThan(0)
      for (const button of buttons) expect(button, `${url} (${scheme})`).toBe(`${button.split(': ')[0]}: ${shared}`)
      await page.screenshot({ path: `test-results/e2e/buttons-${url.split('/')[1]}${url.split('/')[2] ? '-item' : ''}-${scheme}-1280x720.png` })
    }
  }
})

test('the run scores chart keeps every variant\'s markers in sight where their scores are equal, and draws a score at the axis\'s top whole', async ({ page }) => {
  test.setTimeout(90_000)
  const reviewer = await (await page.request.post('/api/workflows', { data: { ...JSON.parse(readFileSync(REVIEWER_JSON, 'utf8')), name: `Reviewer ${Date.now()}` } })).json()
  await page.goto('/experiments')
  await page.getByLabel('Experiment definition').fill(readFileSync(EXPERIMENT_YAML, 'utf8').replace(/workflow_id: Reviewer/, `workflow_id: ${reviewer.id}`))
  await page.getByRole('button', { name: 'Create experiment' }).click()
  await expect(page.getByRole('heading', { name: 'Review prompt' })).toBeVisible()
  await page.getByRole('button', { name: 'Run a round' }).click()
  await expect(page.getByTestId('recommendation')).toBeVisible({ timeout: 60_000 })
  const experiment = await (await page.request.get(`/api/experiments/${page.url().split('/').pop()}`)).json()
  const variants = experiment.rounds.at(-1).report.variants as Record<string, { runs: Array<{ document: string, score: number }> }>
  // The example's reviewer is pinned: both variants score the same on every document, 2 the highest.
  expect(variants.careful!.runs.map(r => r.score)).toEqual(variants.terse!.runs.map(r => r.score))
  expect(Math.max(...variants.terse!.runs.map(r => r.score))).toBe(2)
  const chart = page.getByTestId('chart-spread')
  await expect(chart).toHaveAttribute('data-axes', /.+/)
  await chart.scrollIntoViewIfNeeded()
  await page.screenshot({ path: 'test-results/ub/experiment-spread.png' })

  /** What the canvas drew: per variant colour, its pixels in the plot (above the legend), and above the plot's top line. */
  const drawn = await chart.locator('canvas').evaluate((canvas: HTMLCanvasElement) => {
    const { width, height } = canvas
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, width, height)
    const at = (x: number, y: number) => data.subarray((y * width + x) * 4, (y * width + x) * 4 + 4)
    const near = (p: Uint8ClampedArray, color: number[]) => p[3]! > 200 && color.every((c, i) => Math.abs(p[i]! - c) < 40)
    // The plot's top line: the first row drawn across more than half the width (the highest score's grid line).
    let top = 0
    for (let y = 0; y < height; y++) {
      let inked = 0
      for (let x = 0; x < width; x++) if (at(x, y)[3]! > 0) inked++
      if (inked > width / 2) {
        top = y
        break
      }
    }
    const count = (color: number[], from: number, to: number) => {
      let n = 0
      for (let y = Math.max(0, from); y < to; y++) for (let x = 0; x < width; x++) if (near(at(x, y), color)) n++
      return n
    }
    const colors = { terse: [0x34, 0x51, 0xb2], careful: [0xd9, 0x77, 0x06] }
    const plotBottom = Math.round(height * 0.7)
    return {
      top,
      inPlot: Object.fromEntries(Object.entries(colors).map(([id, c]) => [id, count(c, top, plotBottom)])),
      aboveTop: Object.fromEntries(Object.entries(colors).map(([id, c]) => [id, count(c, top - 10, top)])),
    }
  })
  expect(drawn.top).toBeGreaterThan(0)
  // Each variant's markers show, though their scores are equal.
  for (const id of ['terse', 'careful']) expect(drawn.inPlot[id], `${id}'s markers in the plot`).toBeGreaterThan(40)
  // A score of 2, the axis's top, is drawn whole: its marker reaches above the top line.
  expect(Math.max(...Object.values(drawn.aboveTop))).toBeGreaterThan(5)
})

test('before a round runs, the page warns that a pinned target gives every variant the same outputs, and says nothing once it is unpinned', async ({ page }) => {
  test.setTimeout(60_000)
  const reviewer = await (await page.request.post('/api/workflows', { data: { ...JSON.parse(readFileSync(REVIEWER_JSON, 'utf8')), name: `Reviewer ${Date.now()}` } })).json()
  await page.goto('/experiments')
  await page.getByLabel('Experiment definition').fill(readFileSync(EXPERIMENT_YAML, 'utf8').replace(/workflow_id: Reviewer/, `workflow_id: ${reviewer.id}`))
  await page.getByRole('button', { name: 'Create experiment' }).click()
  await expect(page.getByRole('heading', { name: 'Review prompt' })).toBeVisible()
  const note = page.getByTestId('pinned-target')
  await expect(note).toHaveText('Step review is pinned: it answers with its pinned outputs whatever a variant changes, so every variant gets the same answers and a round compares identical outputs. Unpin the step in the workflow to compare the variants.')
  await expect(note.getByRole('link', { name: 'the workflow' })).toHaveAttribute('href', `/workflows/${reviewer.id}`)
  // Above the button that starts the round, in view with it.
  const run = page.getByRole('button', { name: 'Run a round' })
  expect((await note.boundingBox())!.y).toBeLessThan((await run.boundingBox())!.y)
  await expect(note).toBeInViewport()
  expect(await violations(page)).toEqual([])
  await page.screenshot({ path: 'test-results/ub/experiment-pinned-target.png' })
  await page.emulateMedia({ colorScheme: 'dark' })
  expect(await violations(page)).toEqual([])
  await page.screenshot({ path: 'test-results/ub/experiment-pinned-target-dark.png' })
  await page.emulateMedia({ colorScheme: 'light' })

  // Unpinned (as in the editor), the warning is gone.
  const { pinned: _pinned, ...review } = reviewer.definition.nodes.find((n: { id: string }) => n.id === 'review')
  const definition = { ...reviewer.definition, nodes: reviewer.definition.nodes.map((n: { id: string }) => (n.id === 'review' ? review : n)) }
  expect((await page.request.put(`/api/workflows/${reviewer.id}`, { data: { ...definition, base_version: reviewer.version } })).status()).toBe(200)
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Review prompt' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Run a round' })).toBeVisible()
  await expect(note).toHaveCount(0)
})

test('the experiment page shows its documents and their answer keys, folded until opened', async ({ page }) => {
  test.setTimeout(60_000)
  const reviewer = await (await page.request.post('/api/workflows', { data: { ...JSON.parse(readFileSync(REVIEWER_JSON, 'utf8')), name: `Reviewer ${Date.now()}` } })).json()
  await page.goto('/experiments')
  await page.getByLabel('Experiment definition').fill(readFileSync(EXPERIMENT_YAML, 'utf8').replace(/workflow_id: Reviewer/, `workflow_id: ${reviewer.id}`))
  await page.getByRole('button', { name: 'Create experiment' }).click()
  await expect(page.getByRole('heading', { name: 'Review prompt' })).toBeVisible()
  const toggle = page.getByText('Documents and answer keys (2)', { exact: true })
  await toggle.focus()
  await page.keyboard.press('Enter')
  const contract = page.getByRole('region', { name: 'A service contract (contract)' })
  await expect(contract).toContainText('Clause 4. The supplier\'s liability is unlimited.')
  const key = contract.getByRole('table', { name: 'Answer key of contract' })
  await expect(key.getByRole('columnheader')).toHaveText(['problem', 'category', 'severity', 'counts as found when'])
  await expect(key.getByRole('row').nth(1)).toHaveText(['A1', 'main', 'critical', 'unlimited liability in clause 4'].join(''))
  await expect(contract).toContainText('Bonus findings: no governing law is named')
  await expect(page.getByRole('region', { name: 'An API specification (api-spec)' }).getByRole('table', { name: 'Answer key of api-spec' }).getByRole('row')).toHaveCount(3)
  await contract.scrollIntoViewIfNeeded()
  expect(await violations(page)).toEqual([])
  await page.screenshot({ path: 'test-results/ub/experiment-documents.png' })
})
