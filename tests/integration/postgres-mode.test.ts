import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useServersWithFakeLLM, waitFor } from '../support/app-server'

// A server on PostgreSQL runs the same API, crash and resume tests as one on SQLite
// (api.test.ts, crash-resume.test.ts, over both stores); here, what only PostgreSQL mode has.
const { start } = useServersWithFakeLLM({ beforeAll, afterAll })

/** What a server started on `url` said before it exited (it may listen for a moment before its first query fails). */
async function refusedStart(url: string): Promise<string> {
  try {
    const server = await start({ env: { JUDGEFLOW_DATABASE_URL: url } })
    await waitFor(() => server.process.exitCode !== null, 10_000, 'the server to exit')
    expect(server.process.exitCode).toBe(1)
    return server.output()
  }
  catch (error) {
    return (error as Error).message
  }
}

describe('PostgreSQL mode (JUDGEFLOW_DATABASE_URL)', () => {
  it('stops at start with a sentence naming the variable when the URL is not a PostgreSQL one, or its database cannot be reached', async () => {
    expect(await refusedStart('mysql://localhost/judgeflow')).toContain('judgeflow: refusing to start: JUDGEFLOW_DATABASE_URL must be a PostgreSQL URL')
    expect(await refusedStart('postgres://judgeflow:judgeflow@127.0.0.1:1/judgeflow'))
      .toContain('judgeflow: refusing to start: could not connect to the PostgreSQL database of JUDGEFLOW_DATABASE_URL: connect ECONNREFUSED')
  })
})
