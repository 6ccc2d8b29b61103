import { spawn, type ChildProcess } from 'node:child_process'
import { expect, test } from '@playwright/test'

// Next to the suite's own apps (E2E_PORT, 3210 by default), so runs on other ports do not collide.
const PORT = Number(process.env.E2E_PORT ?? 3210) + 9
const ORIGIN = `http://127.0.0.1:${PORT}`
const TOKEN = 'e2e-token-0123456789abcdef-0123456789abcdef'

test.describe.configure({ mode: 'serial' })
let server: ChildProcess
test.beforeAll(async () => {
  server = spawn(process.execPath, ['tests/e2e/serve.mjs'], { env: { ...process.env, PORT: String(PORT), JUDGEFLOW_TOKEN: TOKEN }, stdio: 'ignore' })
  await expect.poll(async () => (await fetch(`${ORIGIN}/api/health`).catch(() => null))?.status, { timeout: 20_000 }).toBe(200)
})
test.afterAll(() => { server?.kill() })

test('with JUDGEFLOW_TOKEN, a page sends you to the sign-in form, the right token lets you in, Sign out ends the session', async ({ page }) => {
  await page.goto(`${ORIGIN}/experiments`)
  await expect(page).toHaveURL(/\/login\?next=(%2F|\/)experiments$/)
  await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0)
  await page.getByLabel('Access token').fill('not the token')
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('alert')).toContainText('not the one this server was started with')
  await page.getByLabel('Access token').fill(TOKEN)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Experiments' })).toBeVisible()
  const cookie = (await page.context().cookies()).find(c => c.name === 'judgeflow_session')!
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' })
  expect(cookie.value).not.toContain(TOKEN)
  // Scripts in the page cannot read the session cookie.
  expect(await page.evaluate(() => document.cookie)).not.toContain('judgeflow_session')
  await page.screenshot({ path: 'test-results/e2e/signed-in.png' })

  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page).toHaveURL(`${ORIGIN}/login`)
  expect((await page.context().cookies()).find(c => c.name === 'judgeflow_session')).toBeUndefined()
  // The old cookie, put back by hand, no longer opens anything.
  await page.context().addCookies([{ ...cookie }])
  await page.goto(`${ORIGIN}/experiments`)
  await expect(page).toHaveURL(/\/login\?next=/)
})

for (const payload of ['/%5C127.0.0.1:3971/experiments', '/%09/127.0.0.1:3971/experiments']) {
  test(`after signing in, next=${payload} stays on this origin`, async ({ page }) => {
    await page.goto(`${ORIGIN}/login?next=${payload}`)
    await page.getByLabel('Access token').fill(TOKEN)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(url => url.pathname === '/' || url.origin !== ORIGIN)
    expect(page.url()).toBe(`${ORIGIN}/`)
    await expect(page.getByRole('heading', { name: 'Workflows' })).toBeVisible()
  })
}

// Last: it locks this client's wrong tokens out of the server for half a minute.
test('five wrong tokens in a row: the form says when to try again, and the right token still signs in', async ({ page }) => {
  await page.goto(`${ORIGIN}/login`)
  for (let i = 0; i < 5; i++) {
    await page.getByLabel('Access token').fill(`wrong ${i}`)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByRole('alert')).toContainText(i < 4 ? 'not the one' : 'try again in 30 seconds')
  }
  await page.getByLabel('Access token').fill('wrong 5')
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('alert')).toContainText(/Too many wrong tokens from your address: try again in \d+ seconds/)
  await expect(page).toHaveURL(/\/login$/)
  await page.screenshot({ path: 'test-results/e2e/sign-in-throttled.png' })
  await page.getByLabel('Access token').fill(TOKEN)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Workflows' })).toBeVisible()
})
