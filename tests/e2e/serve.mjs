// Serves the built app for the browser tests on a fresh database.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

process.env.HOST = '127.0.0.1'
process.env.JUDGEFLOW_DB = join(mkdtempSync(join(tmpdir(), 'judgeflow-e2e-')), 'judgeflow.db')
// JUDGEFLOW_BUILD_DIR names another build of this checkout (nuxt.config.ts), as `nuxt build` was given it.
const output = process.env.JUDGEFLOW_BUILD_DIR ? resolve(process.env.JUDGEFLOW_BUILD_DIR, 'output') : resolve(import.meta.dirname, '../../.output')
await import(resolve(output, 'server/index.mjs'))
