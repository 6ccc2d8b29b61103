// An evaluator's config_file through the real server: what the folder may hold that is not a
// regular file, and what its errors say of where the folder is.
import { execFileSync } from 'node:child_process'
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SERVER_ENTRY, startAppServer, type AppServer } from '../support/app-server'
import { runEndedOn } from '../support/runs'
import { configFileWorkflow } from '../support/workflows'

const root = mkdtempSync(join(tmpdir(), 'judgeflow-config-files-'))
const configs = join(root, 'configs')
mkdirSync(configs)
writeFileSync(join(configs, 'judge.json'), JSON.stringify({ evaluation_type: 'scoring', model: 'local:heuristic', pass_threshold: 0.1 }))
const fifo = join(configs, 'fifo.json')
execFileSync('mkfifo', [fifo])

let server: AppServer
beforeAll(async () => {
  server = await startAppServer({ env: { JUDGEFLOW_CONFIG_DIR: configs, JUDGEFLOW_MAX_CONCURRENT_RUNS: '16' } })
})
afterAll(async () => {
  // Lets go of any reader still waiting on the pipe (there is none when it was never opened).
  try {
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK))
  }
  catch { /* no reader */ }
  await server?.stop('SIGKILL')
})

async function runsOf(configFile: string, count: number) {
  const created = await server.api('/api/workflows', { body: configFileWorkflow(configFile) })
  expect(created.status).toBe(201)
  const started = await Promise.all(Array.from({ length: count }, () => server.api(`/api/workflows/${created.body.id}/runs`, { body: { input: { text: 'Paris is the capital of France.' } } })))
  expect(started.map(s => s.status)).toEqual(Array(count).fill(202))
  return Promise.all(started.map(s => runEndedOn(server, s.body.id)))
}

describe('config_file', () => {
  it('refuses a named pipe (FIFO) at once, and the server keeps serving files and runs', async () => {
    // More runs than Node has file-system threads (4): a pipe opened for reading would hold each one.
    const refused = await runsOf('fifo.json', 6)
    for (const run of refused) {
      expect(run.status).toBe('failed')
      expect(run.error).toMatchObject({ code: 'INVALID_CONFIG', message: 'The config file "fifo.json" is not a regular file: only regular .json and .toml files are read.' })
    }
    const asset = readdirSync(join(dirname(SERVER_ENTRY), '..', 'public', '_nuxt')).find(name => name.endsWith('.js'))!
    expect((await fetch(`${server.url}/_nuxt/${asset}`)).status).toBe(200)
    expect((await server.api('/api/health')).status).toBe(200)
    const [ok] = await runsOf('judge.json', 1)
    expect(ok.status).toBe('succeeded')
  })

  it('names files relative to the config folder, never where the folder is', async () => {
    for (const file of ['missing.json', join(configs, 'missing.json')]) {
      const [run] = await runsOf(file, 1)
      expect(run.status).toBe('failed')
      expect(run.error.message).toBe('Cannot read the config file "missing.json" in the config folder (JUDGEFLOW_CONFIG_DIR): it does not exist.')
      expect(JSON.stringify([run.error, run.steps.judge.error])).not.toContain(root)
    }
  })
})
