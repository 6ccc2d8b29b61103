import { afterAll, afterEach, describe, expect, it } from 'vitest'
import type { Store } from '../../../core'
import { JudgeflowError } from '../../../engine'
import { storeFactories, stopStores } from '../../support/stores'

afterAll(stopStores)

const postgres = storeFactories.find(f => f.name === 'PostgreSQL')!

/** The error a store call ends with. */
async function failureOf(call: () => unknown): Promise<Error> {
  try {
    await call()
  }
  catch (error) {
    return error as Error
  }
  throw new JudgeflowError('INTERNAL', 'the call did not fail')
}

describe('the PostgreSQL store\'s errors', () => {
  let store: Store
  afterEach(async () => store?.close())

  it('never carry the SQL text or its parameters, in the message or anything the message is built from', async () => {
    store = await postgres.open()
    const dataset = await store.datasets.create('support', [{ id: 'q1', input: {} }])
    const run = await store.datasets.createRun({ datasetId: dataset.id, datasetVersion: 1, target: { workflow_id: 'w' }, options: { concurrency: 1, repeat: 1 } })
    const failures = [
      await failureOf(() => store.workflows.get('x\u0000secret-id')),
      await failureOf(() => store.datasets.create('name\u0000secret-name', [])),
      await failureOf(() => store.datasets.create('support', [])),
      await failureOf(() => store.datasets.saveRunCase({ datasetRunId: run.id, caseId: 'case\u0000secret-case', repeat: 1, status: 'running', runId: 'r1', result: null })),
    ]
    for (const error of failures) {
      expect(error).toBeInstanceOf(JudgeflowError)
      expect(error).toMatchObject({ code: 'INTERNAL', category: 'system' })
      expect(error.message).toMatch(/^The PostgreSQL database refused a query \(SQLSTATE (22021, data exception|23505, integrity constraint violation)\); the server log says why\.$/)
      expect(error.message).not.toMatch(/select|insert|update|params|secret|"support"/i)
      expect(JSON.stringify(error)).not.toMatch(/select|insert|secret/i)
    }
  })
})
