import { describe, expect, it } from 'vitest'
import { NO_BROWSER, resolveBrowser } from '../../../scripts/browser.mjs'

/** A machine whose files are `present`; commands it runs are recorded and may add files. */
function machine(present: string[], effects: Record<string, string> = {}) {
  const files = new Set(present)
  const commands: string[] = []
  return {
    commands,
    exists: (path: string) => files.has(path),
    run: (command: string, args: string[]) => {
      const line = [command, ...args].join(' ')
      commands.push(line)
      if (!(line in effects)) return false
      files.add(effects[line]!)
      return true
    },
  }
}

const missing = '/nowhere/chromium'
const playwright = '/cache/ms-playwright/chromium/chrome'

describe('the browser the tests use', () => {
  it('takes the system Chromium, then Playwright\'s, without installing anything', async () => {
    const both = machine([missing, playwright])
    expect(await resolveBrowser({ systemPath: missing, playwrightPath: playwright, ...both })).toEqual({ executablePath: missing, system: true })
    const own = machine([playwright])
    expect(await resolveBrowser({ systemPath: missing, playwrightPath: playwright, ...own })).toEqual({ executablePath: playwright, system: false })
    expect([...both.commands, ...own.commands]).toEqual([])
  })

  it('installs Playwright\'s Chromium when none is present', async () => {
    const bare = machine([], { 'npx playwright install chromium': playwright })
    expect(await resolveBrowser({ systemPath: missing, playwrightPath: playwright, isRoot: false, ...bare }))
      .toEqual({ executablePath: playwright, system: false })
    expect(bare.commands).toEqual(['npx playwright install chromium'])
  })

  it('falls back to Debian\'s package as root when the download is unreachable', async () => {
    const offline = machine(['/usr/bin/apt-get'], { 'apt-get update -qq': '/var/lib/apt/lists', 'apt-get install -y -qq chromium': missing })
    expect(await resolveBrowser({ systemPath: missing, playwrightPath: playwright, isRoot: true, ...offline }))
      .toEqual({ executablePath: missing, system: true })
    expect(offline.commands).toEqual(['npx playwright install chromium', 'apt-get update -qq', 'apt-get install -y -qq chromium'])
  })

  it('stops at once with one sentence saying what to install when nothing works', async () => {
    const stuck = machine(['/usr/bin/apt-get'])
    await expect(resolveBrowser({ systemPath: missing, playwrightPath: playwright, isRoot: false, ...stuck })).rejects.toThrow(NO_BROWSER)
    expect(stuck.commands).toEqual(['npx playwright install chromium'])
    expect(NO_BROWSER).toMatch(/^No Chromium for the browser tests: run `npx playwright install chromium`.*\.$/)
  })
})
