// The whole test suite: build, type checks, lint, Vitest (unit + integration), Playwright (e2e).
// Ends with the plain line `N passed, N failed`; the exit code is non-zero when anything failed.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { resolveBrowser } from './browser.mjs'

const root = resolve(import.meta.dirname, '..')
const env = { ...process.env, NUXT_TELEMETRY_DISABLED: '1' }
mkdirSync(resolve(root, 'test-results'), { recursive: true })
let passed = 0
let failed = 0

function step(name, command, args, options = {}) {
  const t0 = Date.now()
  console.log(`\n▶ ${name}`)
  const result = spawnSync(command, args, { cwd: root, env: { ...env, ...options.env }, stdio: options.quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit', encoding: 'utf8' })
  const ok = result.status === 0
  if (!ok && options.quiet) process.stdout.write(`${result.stdout ?? ''}${result.stderr ?? ''}`)
  console.log(`${ok ? '✔' : '✘'} ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`)
  return ok
}

function check(name, command, args, options) {
  if (!step(name, command, args, { quiet: true, ...options })) failed++
}

if (!step('build', 'npx', ['nuxt', 'build'], { quiet: true })) {
  console.log('\n0 passed, 1 failed')
  process.exit(1)
}
check('typecheck (engine, db, cli, tests)', 'npx', ['tsc', '-p', 'tsconfig.engine.json'])
check('typecheck (app, server)', 'npx', ['nuxt', 'typecheck'])
check('lint', 'npx', ['eslint', '.'])

// Tools some tests run, installed here when missing (as root, from Debian's packages): python3 for the python
// assertions, bubblewrap to isolate user code, xmllint to check the JUnit report against Jenkins' xunit schema.
function needTool(command, args, debianPackage, forWhat) {
  if (spawnSync(command, args, { stdio: 'ignore' }).status === 0) return
  const asRoot = process.getuid?.() === 0
  if (!asRoot || !step(`install ${command}`, 'sh', ['-c', `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${debianPackage}`], { quiet: true })) {
    console.log(`✘ ${command} is needed by ${forWhat} and is not on PATH: install it (on Debian, apt-get install ${debianPackage}), then run the tests again.`)
    failed++
  }
}
needTool('python3', ['--version'], 'python3-minimal', 'the python assertion tests')
// As root, user code runs as nobody, who cannot read an interpreter under /root (pyenv's): the system's python3 serves it.
if (process.getuid?.() === 0) needTool('/usr/bin/python3', ['--version'], 'python3-minimal', 'the python assertion tests (in the sandbox, as nobody)')
needTool('bwrap', ['--version'], 'bubblewrap', 'the code sandbox tests (it isolates javascript and python assertions)')
needTool('xmllint', ['--version'], 'libxml2-utils', 'the JUnit report tests')

step('vitest', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=test-results/vitest.json'])
const vitest = existsSync(resolve(root, 'test-results/vitest.json')) ? JSON.parse(readFileSync(resolve(root, 'test-results/vitest.json'), 'utf8')) : null
if (vitest) {
  passed += vitest.numPassedTests
  failed += vitest.numFailedTests + (vitest.success || vitest.numFailedTests ? 0 : 1)
}
else failed++

const e2e = readdirSync(resolve(root, 'tests/e2e')).some(name => name.endsWith('.spec.ts'))
let browser
if (e2e) {
  try {
    browser = await resolveBrowser()
  }
  catch (error) {
    console.log(`\n✘ playwright: ${error.message}`)
    failed++
  }
}
if (browser) {
  const ok = step('playwright', 'npx', ['playwright', 'test'], { env: { E2E_CHROMIUM: browser.executablePath, E2E_CHROMIUM_SYSTEM: browser.system ? '1' : '' } })
  const report = resolve(root, 'test-results/playwright.json')
  if (existsSync(report)) {
    const { stats } = JSON.parse(readFileSync(report, 'utf8'))
    passed += stats.expected + stats.flaky
    failed += stats.unexpected
    // A run that failed with no test failing (its server could not start, a port in use) fails too.
    if (!ok && !stats.unexpected) failed++
  }
  else failed++
}

console.log(`\n${passed} passed, ${failed} failed`)
process.exit(failed ? 1 : 0)
