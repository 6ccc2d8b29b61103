// Serves the built app for the browser tests on a fresh database.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

process.env.HOST = '127.0.0.1'
process.env.JUDGEFLOW_DB = join(mkdtempSync(join(tmpdir(), 'judgeflow-e2e-')), 'judgeflow.db')
await import(resolve(import.meta.dirname, '../../.output/server/index.mjs'))
