import AxeBuilder from '@axe-core/playwright'
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'

/** Serious and critical WCAG A/AA findings, with where they are. */
async function violations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze()
  return violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')}`)
}

/** Axe clean in both themes, with a screenshot of each at 1280×720 and of the whole page. */
async function checkedShots(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await page.waitForTimeout(150)
    expect(await violations(page)).toEqual([])
    await page.screenshot({ path: `test-results/e2e/${name}-${scheme}-1280x720.png` })
    await page.screenshot({ path: `test-results/e2e/${name}-${scheme}-full.png`, fullPage: true })
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

/** A dataset of four questions, judged offline by a scorer (a and d pass: their answers name judgeflow); the finished run's dataset. */
async function judgedDataset(request: APIRequestContext, name: string) {
  const csv = [
    'id,question,actual',
    'a,What runs the gate?,judgeflow runs it',
    'b,Who signs the release?,nobody knows',
    'c,Where are the logs?,somewhere else',
    'd,What checks the answers?,judgeflow again',
  ].join('\n')
  const dataset = await (await request.post('/api/datasets', { data: { name, format: 'csv', text: csv } })).json()
  const evaluator = { evaluation_type: 'scorers', pass_threshold: 0.5, scorers: [{ type: 'contains', threshold: 0.5, options: { values: ['judgeflow'] } }] }
  const started = await request.post('/api/dataset-runs', { data: { dataset: dataset.id, target: { evaluator } } })
  expect(started.status()).toBe(202)
  const { id } = await started.json()
  await expect.poll(async () => (await (await request.get(`/api/dataset-runs/${id}`)).json()).status, { timeout: 60_000 }).toBe('finished')
}

const pressed = (page: Page, label: string) => page.getByRole('group', { name: 'Label' }).getByRole('button', { name: new RegExp(`${label}$`) })

test('a queue made from a dataset run, labelled with the keyboard by one reviewer and the mouse by another, blind to each other, then their agreement and the judge\'s', async ({ page, request }) => {
  test.setTimeout(120_000)
  const datasetName = `review ${Date.now()}`
  await judgedDataset(request, datasetName)

  await page.goto('/')
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Review' }).click()
  await expect(page.getByRole('heading', { name: 'Review', level: 1 })).toBeVisible()
  await expect(page.getByText('No queues yet')).toBeVisible()

  // A queue of every judged case, two reviewers each, the judge's verdict shown.
  const form = page.getByRole('form', { name: 'New review queue' })
  await form.getByLabel('Name').fill('helpfulness')
  await form.getByLabel('Dataset', { exact: true }).selectOption({ label: datasetName })
  await expect(form.getByLabel('Dataset run')).toBeEnabled()
  await form.getByLabel('Items').selectOption('all')
  await form.getByLabel(/Labels/).fill('pass, fail')
  await form.getByLabel('Reviewers per item').fill('2')
  await form.getByLabel(/see the judge/).check()
  await checkedShots(page, 'review-new-queue')
  await form.getByRole('button', { name: 'Create queue' }).click()
  await page.waitForURL(/\/review\/[\w-]+$/)
  await expect(page.getByRole('heading', { name: 'helpfulness', level: 1 })).toBeVisible()

  // Ana, with the keyboard alone: 1 picks pass, Enter submits, and the next item comes.
  const name = page.getByLabel('Your name')
  await name.fill('ana')
  await name.press('Enter')
  const item = page.getByTestId('review-item')
  await expect(item).toContainText('Item 1')
  await expect(page.getByTestId('item-input')).toHaveText('question: What runs the gate?\nactual: judgeflow runs it')
  await expect(page.getByTestId('item-judge')).toContainText('pass')
  await expect(page.getByText(/Yours until \d.*; after that another reviewer may take it/)).toBeVisible()
  await page.keyboard.press('1')
  await expect(pressed(page, 'pass')).toHaveAttribute('aria-pressed', 'true')
  await page.keyboard.press('Enter')
  await expect(item).toContainText('Item 2')
  await expect(pressed(page, 'pass')).toHaveAttribute('aria-pressed', 'false')

  // Typing in the comment box fires no shortcut; Escape leaves it, and Enter submits.
  await page.keyboard.press('2')
  await page.getByLabel('Comment').click()
  await page.keyboard.type('sjk1 no answer')
  await expect(page.getByLabel('Comment')).toHaveValue('sjk1 no answer')
  await expect(pressed(page, 'fail')).toHaveAttribute('aria-pressed', 'true')
  await expect(item).toContainText('Item 2')
  await page.keyboard.press('Escape')
  await expect(page.getByLabel('Comment')).not.toBeFocused()
  await page.keyboard.press('Enter')
  await expect(item).toContainText('Item 3')

  // k goes back to what she labelled (with its label and comment), j on again to the leased item.
  await page.keyboard.press('k')
  await expect(item).toContainText('Item 2')
  await expect(page.getByTestId('relabel-note')).toContainText('You labelled this item fail')
  await expect(page.getByLabel('Comment')).toHaveValue('sjk1 no answer')
  await page.keyboard.press('k')
  await expect(item).toContainText('Item 1')
  await page.keyboard.press('j')
  await page.keyboard.press('j')
  await expect(item).toContainText('Item 3')
  await expect(page.getByTestId('relabel-note')).toHaveCount(0)

  // s skips item 3; item 4 is labelled fail; then nothing is left for her.
  await page.keyboard.press('s')
  await expect(item).toContainText('Item 4')
  await page.keyboard.press('2')
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('review-done')).toBeVisible()
  await expect(page.getByTestId('review-progress')).toContainText('ana (you)3 / 4')

  // ? shows the keys; Escape closes them.
  await page.keyboard.press('?')
  const keys = page.getByRole('dialog', { name: 'Keys' })
  await expect(keys).toContainText('pick the label of that number')
  await checkedShots(page, 'review-keys')
  await page.keyboard.press('Escape')
  await expect(keys).toHaveCount(0)

  // The name is remembered on this browser.
  await page.reload()
  await expect(page.getByLabel('Your name')).toHaveValue('ana')

  // Bo, with the mouse: handed item 1 too, and nothing of Ana's label on it.
  await page.getByLabel('Your name').fill('bo')
  await page.getByRole('button', { name: 'Start reviewing' }).click()
  await expect(item).toContainText('Item 1')
  for (const label of ['pass', 'fail']) await expect(pressed(page, label)).toHaveAttribute('aria-pressed', 'false')
  await expect(page.getByLabel('Comment')).toHaveValue('')
  await checkedShots(page, 'review-item')
  for (const [n, label] of [[1, 'pass'], [2, 'fail'], [3, 'fail'], [4, 'pass']] as const) {
    await expect(item).toContainText(`Item ${n}`)
    await pressed(page, label).click()
    await page.getByRole('button', { name: 'Submit' }).click()
  }
  await expect(page.getByTestId('review-done')).toBeVisible()

  // Ana pass fail · fail, Bo pass fail fail pass: on the three both labelled p_o ⅔, p_e 4/9, Cohen's κ 0.4;
  // α over 6 labels (3 pass, 3 fail), one pair apart: 1 − 5·2 / 18 = 0.44. The consensus pass, fail, fail (item 4 tied)
  // is what the judge said: κ 1, the confusion matrix on its diagonal.
  const agreement = page.getByTestId('review-agreement')
  await expect(page.getByTestId('people-kappa')).toContainText('Cohen’s κ0.40')
  await expect(page.getByTestId('people-alpha')).toContainText('0.44')
  await expect(page.getByTestId('consensus')).toContainText('3 agreed · 1 tied · 0 unlabelled')
  await expect(page.getByTestId('judge-kappa')).toContainText('1.00')
  await expect(page.getByTestId('judge-kappa')).toContainText('over 3 items · alike 100.0 %')
  const confusion = page.getByTestId('review-confusion')
  await expect(confusion.getByRole('row', { name: /people pass/ })).toHaveText(/people pass\s*1\s*0/)
  await expect(confusion.getByRole('row', { name: /people fail/ })).toHaveText(/people fail\s*0\s*2/)
  await expect(page.getByTestId('review-progress')).toContainText('3 of 4 items have 2 labels')
  // The consensus as a dataset: items 1–3 people agree on (item 4 is tied), their cases' expected verdicts.
  await page.getByLabel('Dataset (name or id)').fill('helpfulness labels')
  await page.getByRole('button', { name: 'Export the consensus' }).click()
  await expect(page.getByTestId('review-exported')).toHaveText(/^3 cases written to helpfulness labels v1\.\s*$/)
  const exported = (await (await request.get('/api/datasets')).json() as Array<{ id: string, name: string }>).find(d => d.name === 'helpfulness labels')!
  const { cases } = await (await request.get(`/api/datasets/${exported.id}`)).json() as { cases: Array<{ expected?: { verdict?: string } }> }
  expect(cases.map(c => c.expected?.verdict).sort()).toEqual(['fail', 'fail', 'pass'])
  await agreement.scrollIntoViewIfNeeded()
  await checkedShots(page, 'review-agreement')

  // The queue's list shows its progress.
  await page.getByRole('link', { name: 'Review', exact: true }).first().click()
  await expect(page.getByTestId('queue-helpfulness')).toContainText('3 of 4')
  await expect(page.getByTestId('queue-helpfulness')).toContainText('ana 3')
  await expect(page.getByTestId('queue-helpfulness')).toContainText('bo 4')
})

test('a rubric of its own labels with a score: the keys pick them, a score out of range is refused by its field\'s name, and the judge stays hidden', async ({ page, request }) => {
  test.setTimeout(90_000)
  const datasetName = `scored review ${Date.now()}`
  await judgedDataset(request, datasetName)
  const dataset = (await (await request.get('/api/datasets')).json() as Array<{ id: string, name: string }>).find(d => d.name === datasetName)!
  const [run] = await (await request.get(`/api/datasets/${dataset.id}/runs`)).json()
  const created = await request.post('/api/queues', {
    data: { name: 'tone', rubric: { labels: ['friendly', 'neutral', 'rude'], score: true, comment: false }, instructions: 'Judge the tone only.', items: { from: 'dataset_run', dataset_run_id: run.id, select: 'failed' } },
  })
  expect(created.status()).toBe(201)
  await page.goto(`/review/${(await created.json()).id}`)
  await expect(page.getByText('Judge the tone only.')).toBeVisible()
  await page.getByLabel('Your name').fill('cy')
  await page.getByLabel('Your name').press('Enter')
  // The failed cases only (b and c), the judge's verdict hidden, no comment box.
  await expect(page.getByTestId('review-item')).toContainText('Item 1 · case b')
  await expect(page.getByTestId('item-judge')).toHaveCount(0)
  await expect(page.getByLabel('Comment')).toHaveCount(0)
  await page.keyboard.press('3')
  await expect(pressed(page, 'rude')).toHaveAttribute('aria-pressed', 'true')
  await page.keyboard.press('4')
  await expect(pressed(page, 'rude')).toHaveAttribute('aria-pressed', 'true')
  await page.getByLabel('Score (0–1)').fill('1.5')
  await page.getByRole('button', { name: 'Submit' }).click()
  await expect(page.getByRole('alert')).toHaveText('score: must be from 0 to 1')
  await page.getByLabel('Score (0–1)').fill('0.2')
  await page.getByRole('button', { name: 'Submit' }).click()
  await expect(page.getByTestId('review-item')).toContainText('Item 2 · case c')
  await expect(page.getByRole('alert')).toHaveCount(0)
  await expect(page.getByTestId('review-progress')).toContainText('cy (you)1 / 2')
  // Enter on a label's button (reached with Tab) gives that label.
  await pressed(page, 'neutral').focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('review-done')).toBeVisible()
  await expect(page.getByTestId('review-progress')).toContainText('cy (you)2 / 2')
  expect(await violations(page)).toEqual([])
})
