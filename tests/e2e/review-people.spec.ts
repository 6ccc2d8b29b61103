import { spawn, type ChildProcess } from 'node:child_process'
import { expect, test, type Page } from '@playwright/test'
import { checkedShots } from './axe'

/**
 * Reviewers are people (JUDGEFLOW_USERS): with a shared token each signs in by name and reviews as
 * that name, which the page shows and cannot be changed; on this machine without a token the page
 * offers the names to pick from. Two apps of their own, next to the suite's (E2E_PORT, 3210 by default).
 */
const BASE_PORT = Number(process.env.E2E_PORT ?? 3210)
const SHARED = `http://127.0.0.1:${BASE_PORT + 13}`
const LOCAL = `http://127.0.0.1:${BASE_PORT + 14}`
const TOKEN = 'e2e-token-0123456789abcdef-0123456789abcdef'
const USERS = 'Ana Lima,Bo'

test.describe.configure({ mode: 'serial' })
const servers: ChildProcess[] = []
test.beforeAll(async () => {
  for (const [origin, env] of [[SHARED, { JUDGEFLOW_TOKEN: TOKEN }], [LOCAL, {}]] as const) {
    servers.push(spawn(process.execPath, ['tests/e2e/serve.mjs'], { env: { ...process.env, PORT: new URL(origin).port, JUDGEFLOW_USERS: USERS, ...env }, stdio: 'ignore' }))
    await expect.poll(async () => (await fetch(`${origin}/api/health`).catch(() => null))?.status, { timeout: 20_000 }).toBe(200)
  }
})
test.afterAll(() => {
  for (const server of servers) server.kill()
})

/** A queue of three judged cases, two reviewers each, on the app at `origin`; its id. */
async function queueOn(origin: string, headers: Record<string, string> = {}): Promise<string> {
  const api = async (path: string, body?: unknown) => {
    const response = await fetch(`${origin}${path}`, body === undefined
      ? { headers }
      : { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
    return response.json() as Promise<Record<string, any>>
  }
  const text = ['id,question,actual', 'a,What runs the gate?,judgeflow runs it', 'b,Who signs?,nobody knows', 'c,Where are the logs?,judgeflow keeps them'].join('\n')
  const dataset = await api('/api/datasets', { name: `people ${Date.now()}`, format: 'csv', text })
  const evaluator = { evaluation_type: 'scorers', pass_threshold: 0.5, scorers: [{ type: 'contains', threshold: 0.5, options: { values: ['judgeflow'] } }] }
  const run = await api('/api/dataset-runs', { dataset: dataset.id, target: { evaluator } })
  await expect.poll(async () => (await api(`/api/dataset-runs/${run.id}`)).status, { timeout: 60_000 }).toBe('finished')
  const queue = await api('/api/queues', { name: 'tone by people', reviewers_per_item: 2, items: { from: 'dataset_run', dataset_run_id: run.id } })
  return queue.id as string
}

const pressed = (page: Page, label: string) => page.getByRole('group', { name: 'Label' }).getByRole('button', { name: new RegExp(`${label}$`) })

test('with a shared token, each person signs in by name and reviews as themselves; neither can label as the other', async ({ page, browser }) => {
  test.setTimeout(120_000)
  const bearer = { authorization: `Bearer ${TOKEN}` }
  const queueId = await queueOn(SHARED, bearer)

  // The sign-in form asks who you are, from the list, with the keyboard alone.
  await page.goto(`${SHARED}/review/${queueId}`)
  await expect(page).toHaveURL(/\/login\?next=/)
  const who = page.getByLabel('Your name')
  await expect(who.locator('option')).toHaveText(['Pick your name', 'Ana Lima', 'Bo'])
  await checkedShots(page, 'review-people-sign-in')
  await who.focus()
  await who.selectOption('Ana Lima')
  await page.keyboard.press('Tab')
  await expect(page.getByLabel('Access token')).toBeFocused()
  await page.keyboard.type(TOKEN)
  await page.keyboard.press('Enter')

  // Back on the queue: "Reviewing as Ana Lima", no name to type, the first item leased to her at once.
  await expect(page.getByTestId('reviewing-as')).toHaveText('Reviewing as Ana Lima')
  await expect(page.getByTestId('signed-in-as')).toHaveText('Ana Lima')
  await expect(page.getByLabel('Your name')).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Start reviewing' })).toHaveCount(0)
  const item = page.getByTestId('review-item')
  await expect(item).toContainText('Item 1')
  await page.keyboard.press('1')
  await expect(pressed(page, 'pass')).toHaveAttribute('aria-pressed', 'true')
  await page.keyboard.press('Enter')
  await expect(item).toContainText('Item 2')
  await expect(page.getByTestId('review-progress')).toContainText('Ana Lima (you)1 / 3')
  await checkedShots(page, 'review-people-as-user')

  // Her session cannot label as Bo, nor lease for him: refused naming the field.
  const asBo = await page.request.post(`${SHARED}/api/queues/${queueId}/labels`, { data: { item_id: 'x', reviewer: 'Bo', label: 'fail' } })
  expect(asBo.status()).toBe(403)
  expect((await asBo.json()).message).toBe('reviewer: you are signed in as "Ana Lima" and label as yourself only: leave reviewer out, or send "Ana Lima"')

  // Bo, in a browser of his own: handed item 1, blind to Ana's label, and his label is his.
  const other = await browser.newContext({ viewport: { width: 1280, height: 720 } })
  const bo = await other.newPage()
  await bo.goto(`${SHARED}/login?next=/review/${queueId}`)
  await bo.getByLabel('Your name').selectOption('Bo')
  await bo.getByLabel('Access token').fill(TOKEN)
  await bo.getByRole('button', { name: 'Sign in' }).click()
  await expect(bo.getByTestId('reviewing-as')).toHaveText('Reviewing as Bo')
  await expect(bo.getByTestId('review-item')).toContainText('Item 1')
  for (const label of ['pass', 'fail']) await expect(pressed(bo, label)).toHaveAttribute('aria-pressed', 'false')
  await bo.keyboard.press('2')
  await bo.keyboard.press('Enter')
  await expect(bo.getByTestId('review-item')).toContainText('Item 2')
  await other.close()

  const queue = await (await fetch(`${SHARED}/api/queues/${queueId}`, { headers: bearer })).json()
  expect(queue.progress).toMatchObject({ complete: 1, by_reviewer: { 'Ana Lima': 1, 'Bo': 1 } })
})

test('on this machine without a token, the page offers the listed names, and remembers the one picked', async ({ page }) => {
  test.setTimeout(120_000)
  const queueId = await queueOn(LOCAL)
  await page.goto(`${LOCAL}/review/${queueId}`)
  await expect(page.getByText('Pick your name and start reviewing')).toBeVisible()
  const who = page.getByLabel('Your name')
  await expect(who.locator('option')).toHaveText(['Pick your name', 'Ana Lima', 'Bo'])
  await expect(page.getByRole('button', { name: 'Start reviewing' })).toBeDisabled()
  await checkedShots(page, 'review-people-pick')
  // Enter on the choice starts reviewing; the keys then act on the item.
  await who.selectOption('Bo')
  await who.press('Enter')
  const item = page.getByTestId('review-item')
  await expect(item).toContainText('Item 1')
  await expect(page.getByRole('region', { name: 'Item to review' })).toBeFocused()
  await page.keyboard.press('2')
  await page.keyboard.press('Enter')
  await expect(item).toContainText('Item 2')
  await expect(page.getByTestId('review-progress')).toContainText('Bo (you)1 / 3')
  await checkedShots(page, 'review-people-picked')

  // Remembered on this browser: the next visit starts as Bo.
  await page.reload()
  await expect(page.getByLabel('Your name')).toHaveValue('Bo')
  await expect(page.getByTestId('review-item')).toContainText('Item 2')
})
