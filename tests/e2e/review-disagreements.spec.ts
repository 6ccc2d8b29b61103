import { expect, test, type APIRequestContext } from '@playwright/test'
import { checkedShots } from './axe'

/** An offline judge: pass when the answer holds one of the words (half of one word each). */
const contains = (...values: string[]) => ({ evaluation_type: 'scorers', pass_threshold: 0.5, scorers: [{ type: 'contains', threshold: 0.5, options: { values } }] })

/** Four answers judged by `contains('judgeflow')` (a and d pass); the finished dataset run's id. */
async function judgedRun(request: APIRequestContext, name: string): Promise<string> {
  const csv = ['id,question,actual', 'a,What runs the gate?,judgeflow runs it', 'b,Who signs the release?,nobody knows', 'c,Where are the logs?,somewhere else', 'd,What checks the answers?,judgeflow again'].join('\n')
  const dataset = await (await request.post('/api/datasets', { data: { name, format: 'csv', text: csv } })).json()
  const started = await request.post('/api/dataset-runs', { data: { dataset: dataset.id, target: { evaluator: contains('judgeflow') } } })
  expect(started.status()).toBe(202)
  const { id } = await started.json()
  await expect.poll(async () => (await (await request.get(`/api/dataset-runs/${id}`)).json()).status, { timeout: 60_000 }).toBe('finished')
  return id
}

/** The queues a test made: deleted after it, so the specs after these find the Review page as they left it (review.spec.ts starts with no queue). */
const made: string[] = []
test.afterEach(async ({ request }) => {
  for (const id of made.splice(0)) await request.delete(`/api/queues/${id}`)
})

async function newQueue(request: APIRequestContext, name: string, runId?: string, reviewers = 1): Promise<{ id: string, name: string }> {
  const items = runId ? { items: { from: 'dataset_run', dataset_run_id: runId } } : {}
  const answer = await request.post('/api/queues', { data: { name, reviewers_per_item: reviewers, ...items } })
  expect(answer.status()).toBe(201)
  const queue = await answer.json()
  made.push(queue.id)
  return queue
}

test('the items where people and the judge part, the judge re-run with an edited rubric and its κ before and after', async ({ page, request }) => {
  test.setTimeout(120_000)
  const runId = await judgedRun(request, `disagreements ${Date.now()}`)
  const { id: queueId } = await newQueue(request, 'parted', runId, 2)
  const items = (await (await request.get(`/api/queues/${queueId}/disagreements`)).json()).items
  expect(items).toEqual([])
  // Ana pass pass fail fail, Bo pass pass fail pass: the consensus pass pass fail on a–c, d tied; the judge said pass fail fail pass.
  const labels = { ana: ['pass', 'pass', 'fail', 'fail'], bo: ['pass', 'pass', 'fail', 'pass'] }
  for (const [reviewer, given] of Object.entries(labels)) {
    for (const label of given) {
      const { item } = await (await request.post(`/api/queues/${queueId}/next`, { data: { reviewer } })).json()
      expect((await request.post(`/api/queues/${queueId}/labels`, { data: { item_id: item.id, reviewer, label, comment: reviewer === 'bo' && label === 'pass' ? 'reads fine' : null } })).status()).toBe(201)
    }
  }

  await page.goto(`/review/${queueId}`)
  const list = page.getByTestId('review-disagreements')
  await expect(list.getByRole('heading', { name: 'Where people and the judge part' })).toBeVisible()
  await expect(list.getByRole('listitem')).toHaveCount(2)
  const b = page.getByTestId('disagreement-2')
  await expect(b).toContainText('the judge differs from the consensus')
  await expect(b).toContainText('Who signs the release?')
  await expect(b).toContainText('nobody knows')
  await expect(b).toContainText(/ana\s*pass/)
  await expect(b).toContainText(/bo\s*pass — reads fine/)
  await expect(b.getByTestId('disagreement-consensus')).toContainText('pass (2 of 2)')
  await expect(b.getByTestId('disagreement-judge')).toContainText('fail')
  await expect(page.getByTestId('disagreement-4')).toContainText('reviewers differ')
  await expect(page.getByTestId('disagreement-4').getByTestId('disagreement-consensus')).toContainText('tied: fail / pass')
  await list.scrollIntoViewIfNeeded()
  await checkedShots(page, 'review-disagreements', { fullPage: true })

  // The rubric edited to pass "nobody" too: on a–c the judge is the consensus. Before, pass fail fail against pass pass fail —
  // p_o 2/3, p_e 1/3·2/3 + 2/3·1/3 = 4/9, κ (2/3 − 4/9) / (5/9) = 0.40; after, κ 1.
  await list.getByText('Use another evaluator config').click()
  await list.getByLabel(/Evaluator config/).fill(JSON.stringify(contains('judgeflow', 'nobody')))
  await list.getByRole('button', { name: 'Re-run the judge' }).click()
  const result = page.getByTestId('rejudge-result')
  await expect(result).toContainText('Judged 4 of 4 items with the evaluator config given; 1 verdict changed.')
  await expect(result.getByTestId('kappa-before')).toContainText('κ 0.40')
  await expect(result.getByTestId('kappa-before')).toContainText('over 3 items')
  await expect(result.getByTestId('kappa-after')).toContainText('κ 1.00')
  // The verdict item b came with stays beside the re-run's.
  await expect(b.getByTestId('disagreement-judge')).toContainText('fail')
  await expect(b.getByTestId('disagreement-rejudged')).toContainText('pass')
  await checkedShots(page, 'review-rejudged', { fullPage: true })

  // A config that is not JSON is refused on the page, naming why.
  await list.getByLabel(/Evaluator config/).fill('{ nope')
  await list.getByRole('button', { name: 'Re-run the judge' }).click()
  await expect(list.getByRole('alert')).toContainText('The evaluator config is not JSON')
})

test('an item given back goes to another reviewer; a queue is deleted once confirmed', async ({ page, request }) => {
  test.setTimeout(120_000)
  const runId = await judgedRun(request, `give back ${Date.now()}`)
  const { id: queueId } = await newQueue(request, 'given back', runId, 1)
  await page.addInitScript(() => window.localStorage.setItem('judgeflow.reviewer', 'cy'))
  await page.goto(`/review/${queueId}`)
  const item = page.getByTestId('review-item')
  await expect(item).toContainText('Item 1')
  await page.getByRole('button', { name: 'Give it back' }).click()
  await expect(page.getByTestId('given-back')).toContainText('You gave item 1 back')
  await checkedShots(page, 'review-given-back')
  // Dee takes it at once.
  const taken = await (await request.post(`/api/queues/${queueId}/next`, { data: { reviewer: 'dee' } })).json()
  expect(taken.item.position).toBe(1)
  await page.getByRole('button', { name: 'Take the next item' }).click()
  await expect(item).toContainText('Item 2')

  // Delete asks first: dismissed, the queue stays; accepted, it goes.
  page.once('dialog', dialog => void dialog.dismiss())
  await page.getByRole('button', { name: 'Delete queue' }).click()
  await expect(page).toHaveURL(new RegExp(`/review/${queueId}$`))
  page.once('dialog', (dialog) => {
    expect(dialog.message()).toContain('Delete the review queue "given back"')
    void dialog.accept()
  })
  await page.getByRole('button', { name: 'Delete queue' }).click()
  await page.waitForURL(/\/review$/)
  expect((await request.get(`/api/queues/${queueId}`)).status()).toBe(404)
})

test('runs picked in a workflow\'s history are added to a review queue', async ({ page, request }) => {
  test.setTimeout(90_000)
  const workflow = {
    name: `Picked runs ${Date.now()}`,
    nodes: [
      { id: 'in', type: 'input', config: { fields: { answer: { type: 'string' } } }, position: { x: 0, y: 80 } },
      { id: 'judge', type: 'evaluator', config: { ...contains('judgeflow'), actual: '{{input.answer}}' }, position: { x: 280, y: 80 } },
    ],
    edges: [{ from: 'in', to: 'judge' }],
  }
  const { id } = await (await request.post('/api/workflows', { data: workflow })).json()
  for (const answer of ['judgeflow runs it', 'nobody knows']) {
    const started = await request.post(`/api/workflows/${id}/runs`, { data: { input: { answer } } })
    const run = (await started.json()).id
    await expect.poll(async () => (await (await request.get(`/api/runs/${run}`)).json()).status, { timeout: 15_000 }).toBe('succeeded')
  }
  const queue = await newQueue(request, `from runs ${Date.now()}`)

  await page.goto(`/workflows/${id}`)
  await page.getByRole('tab', { name: 'History' }).click()
  const history = page.getByTestId('run-history')
  const rows = history.locator('tbody tr')
  await expect(rows).toHaveCount(2)
  await expect(page.getByTestId('add-runs-to-queue')).toBeDisabled()
  await rows.nth(0).getByRole('checkbox').check()
  await rows.nth(1).getByRole('checkbox').check()
  await page.getByTestId('add-runs-to-queue').click()
  const form = page.getByRole('form', { name: 'Add to review queue' })
  await form.getByLabel('Add the 2 picked runs to').selectOption({ label: `${queue.name} (0 items)` })
  await checkedShots(page, 'runs-add-to-queue')
  await form.getByRole('button', { name: 'Add', exact: true }).click()
  await expect(page.getByTestId('added-to-queue')).toContainText(`2 added to ${queue.name}`)
  const items = await (await request.get(`/api/queues/${queue.id}`)).json()
  expect(items.progress.items).toBe(2)
  // Added again: both are there already.
  await form.getByRole('button', { name: 'Add', exact: true }).click()
  await expect(page.getByTestId('added-to-queue')).toContainText('0 added to')
  await expect(page.getByTestId('added-to-queue')).toContainText('(2 already there)')
  await page.getByTestId('added-to-queue').getByRole('link', { name: queue.name }).click()
  await page.waitForURL(new RegExp(`/review/${queue.id}$`))
})
