import { describe, expect, it } from 'vitest'
import { cli } from '../../support/cli'

describe('judgeflow worker and serve', () => {
  it('needs the PostgreSQL database of the queue', async () => {
    const { code, err } = await cli(['worker'])
    expect(code).toBe(2)
    expect(err).toContain('set JUDGEFLOW_DATABASE_URL=postgres://')
  })

  it('names --concurrency when it is not a whole number of at least 1', async () => {
    for (const wrong of ['0', 'many', '1.5']) {
      const { code, err } = await cli(['worker', '--concurrency', wrong], { JUDGEFLOW_DATABASE_URL: 'postgres://127.0.0.1:1/none' })
      expect(code).toBe(2)
      expect(err).toBe(`--concurrency must be a whole number of runs of at least 1, not "${wrong}"`)
    }
  })

  it('names --nice when it is not a whole number from 0 to 19', async () => {
    for (const wrong of ['20', '-1', 'low', '2.5']) {
      const { code, err } = await cli(['worker', `--nice=${wrong}`], { JUDGEFLOW_DATABASE_URL: 'postgres://127.0.0.1:1/none' })
      expect(code).toBe(2)
      expect(err).toBe(`--nice must be a whole number from 0 (the usual CPU priority) to 19 (the lowest), not "${wrong}"`)
    }
  })

  it('lists both commands in its usage, and refuses arguments they do not take', async () => {
    expect((await cli(['help'])).out).toMatch(/judgeflow serve \[--port N\] \[--host <host>\] \[--db <path>\] \[--no-worker\][\s\S]*judgeflow worker \[--concurrency N\] \[--nice N\]/)
    expect((await cli(['serve', 'now'])).err).toContain('serve takes no arguments but --port, --host, --db and --no-worker (got "now")')
  })
})
