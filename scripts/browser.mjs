// Finds a Chromium for the browser tests, installing one when none is present:
// Debian's chromium where it is installed, else Playwright's own, else `npx playwright install
// chromium`, else (as root, where that download is unreachable) Debian's chromium package.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

export const SYSTEM_CHROMIUM = '/usr/bin/chromium'

export const NO_BROWSER = 'No Chromium for the browser tests: run `npx playwright install chromium` '
  + '(or, on Debian, `apt-get install chromium`), then run the tests again.'

function defaultRun(command, args) {
  console.log(`  $ ${command} ${args.join(' ')}`)
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, timeout: 10 * 60_000 })
  return result.status === 0
}

async function playwrightChromium() {
  try {
    const { chromium } = await import('@playwright/test')
    return chromium.executablePath()
  }
  catch {
    return undefined
  }
}

/**
 * Returns `{ executablePath, system }`: `system` is true for a Chromium that is not Playwright's
 * (it needs the flags in playwright.config.ts). Throws with one sentence saying what to install.
 */
export async function resolveBrowser(options = {}) {
  const systemPath = options.systemPath ?? process.env.JUDGEFLOW_CHROMIUM ?? SYSTEM_CHROMIUM
  const playwrightPath = 'playwrightPath' in options ? options.playwrightPath : await playwrightChromium()
  const run = options.run ?? defaultRun
  const isRoot = options.isRoot ?? process.getuid?.() === 0
  const exists = options.exists ?? existsSync
  const found = () => {
    if (exists(systemPath)) return { executablePath: systemPath, system: true }
    if (playwrightPath && exists(playwrightPath)) return { executablePath: playwrightPath, system: false }
    return undefined
  }
  let browser = found()
  if (browser) return browser
  console.log('No Chromium found for the browser tests; installing one…')
  if (run('npx', ['playwright', 'install', 'chromium']) && (browser = found())) return browser
  if (isRoot && exists('/usr/bin/apt-get')) {
    if (run('apt-get', ['update', '-qq']) && run('apt-get', ['install', '-y', '-qq', 'chromium']) && (browser = found())) return browser
  }
  throw new Error(NO_BROWSER)
}
