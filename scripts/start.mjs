// Builds the app when the build is missing or older than its sources, then serves it on loopback.
// A build named by JUDGEFLOW_BUILD_DIR (`JUDGEFLOW_BUILD_DIR=<dir> npx nuxt build`, nuxt.config.ts) is
// served as it is, as tests/e2e/serve.mjs serves it: built here only when missing.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const buildDir = process.env.JUDGEFLOW_BUILD_DIR
const entry = buildDir ? resolve(buildDir, 'output/server/index.mjs') : join(root, '.output/server/index.mjs')
const sources = ['app', 'pages', 'components', 'server', 'engine', 'core', 'db', 'nuxt.config.ts', 'package-lock.json']

function newest(path) {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), stat.mtimeMs)
}

const built = existsSync(entry) ? statSync(entry).mtimeMs : 0
if (!built || (!buildDir && sources.some(source => newest(join(root, source)) > built))) {
  console.log('judgeflow: building the app…')
  const build = spawnSync('npx', ['nuxt', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NUXT_TELEMETRY_DISABLED: '1' } })
  if (build.status !== 0) process.exit(build.status ?? 1)
}

process.env.HOST ??= '127.0.0.1'
process.env.PORT ??= '3000'
process.env.JUDGEFLOW_DB ??= join(root, 'data/judgeflow.db')
console.log(`judgeflow: serving http://${process.env.HOST}:${process.env.PORT} (database ${databaseName()})`)
await import(entry)

/** The database the app opens, a PostgreSQL URL without its password. */
function databaseName() {
  const url = process.env.JUDGEFLOW_DATABASE_URL
  if (!url) return process.env.JUDGEFLOW_DB
  try {
    const parsed = new URL(url)
    parsed.password = ''
    return `PostgreSQL ${parsed.href}`
  }
  catch {
    return 'PostgreSQL (JUDGEFLOW_DATABASE_URL)'
  }
}
