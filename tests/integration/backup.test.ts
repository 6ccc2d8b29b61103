import { execFile } from 'node:child_process'
import { copyFileSync, existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, tempDbPath, waitFor, type AppServer } from '../support/app-server'

const root = resolve(import.meta.dirname, '../..')
const backup = (args: string[]) => new Promise<{ code: number, stdout: string, stderr: string }>((done) => {
  execFile(process.execPath, [join(root, 'bin/judgeflow.mjs'), 'backup', ...args], { cwd: root }, (error, stdout, stderr) => done({ code: error ? (error as { code?: number }).code ?? 1 : 0, stdout, stderr }))
})

let server: AppServer
let restored: AppServer | undefined
beforeAll(async () => { server = await startAppServer() })
afterAll(async () => {
  await server?.stop()
  await restored?.stop()
})

describe('judgeflow backup', () => {
  it('copies the live database while runs go on, checks the copy, and the copy restores', async () => {
    const { body: gate } = await server.api('/api/workflows', { body: JSON.parse(readFileSync(join(root, 'examples/quality-gate.json'), 'utf8')) })
    const first = await server.api(`/api/workflows/${gate.id}/runs`, { method: 'POST', body: { input: { question: 'q?' } } })
    const original = await waitFor(async () => {
      const { body } = await server.api(`/api/runs/${first.body.id}`)
      return body.status === 'succeeded' ? body : undefined
    }, 15_000, 'the first run')
    // Runs keep starting and writing while the backup copies the file.
    const writing = Promise.all(Array.from({ length: 30 }, () => server.api(`/api/workflows/${gate.id}/runs`, { method: 'POST', body: { input: { question: 'q?' } } })))
    const target = join(tempDbPath(), '..', 'backup.db')
    const result = await backup([target, '--db', server.dbPath])
    await writing
    expect(result.code).toBe(0)
    const report = JSON.parse(result.stdout)
    expect(report).toMatchObject({ integrity: 'ok', destination: target })
    expect(report.counts.workflows).toBe(1)
    expect(report.counts.runs).toBeGreaterThanOrEqual(1)
    expect(existsSync(`${target}.partial`)).toBe(false)
    const copy = new Database(target, { readonly: true })
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok')
    copy.close()

    // Restore (README: stop the server, put the copy in place of the database, start): the copy serves.
    const restoredPath = tempDbPath()
    copyFileSync(target, restoredPath)
    restored = await startAppServer({ dbPath: restoredPath })
    const { body: run } = await restored.api(`/api/runs/${first.body.id}`)
    expect(run).toMatchObject({ status: 'succeeded', verdict: original.verdict, output: original.output })
    expect(Object.keys(run.steps)).toEqual(Object.keys(original.steps))
    expect((await restored.api('/api/workflows')).body).toHaveLength(1)
  })

  it('refuses a missing database and a target that is the database itself, exit 2', async () => {
    expect((await backup([join(tempDbPath(), '..', 'x.db'), '--db', '/nonexistent/judgeflow.db'])).stderr).toContain('does not exist')
    const same = await backup([server.dbPath, '--db', server.dbPath])
    expect(same.code).toBe(2)
    expect(same.stderr).toContain(`the backup file "${server.dbPath}" is the database "${server.dbPath}", which this command reads`)
  })
})
