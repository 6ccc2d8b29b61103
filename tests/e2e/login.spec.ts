import { spawn } from 'node:child_process'
import { expect, test } from '@playwright/test'

const PORT = 3219
const TOKEN = 'e2e-token-0123456789abcdef'

test('with JUDGEFLOW_TOKEN, a page sends you to the sign-in form, and the right token lets you in', async ({ page }) => {
  const server = spawn(process.execPath, ['tests/e2e/serve.mjs'], { env: { ...process.env, PORT: String(PORT), JUDGEFLOW_TOKEN: TOKEN }, stdio: 'ignore' })
  try {
    await expect.poll(async () => (await fetch(`http://127.0.0.1:${PORT}/api/health`).catch(() => null))?.status, { timeout: 20_000 }).toBe(200)
    await page.goto(`http://127.0.0.1:${PORT}/experiments`)
    await expect(page).toHaveURL(/\/login\?next=(%2F|\/)experiments$/)
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
  }
  finally {
    server.kill()
  }
})
