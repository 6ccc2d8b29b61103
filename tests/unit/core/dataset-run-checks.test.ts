/**
 * A dataset run that every case would error is refused at its start (a user error: 400 from the
 * API, exit 2 from `judgeflow test`), before any case runs: cases lacking a field the workflow's
 * input step requires, or a key the workflow's models need.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createJudgeflow, loadConfig, type Judgeflow } from '../../../core'
import { createSqliteStore, openDatabase } from '../../../db'

const workflow = {
  name: 'Support answers',
  nodes: [
    { id: 'in', type: 'input', config: { fields: { question: { type: 'string', required: true }, tone: { type: 'string', required: true, default: 'kind' } } } },
    { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Answer {{input.question}} in a {{input.tone}} tone' } },
  ],
  edges: [{ from: 'in', to: 'draft' }],
}

let app: Judgeflow | undefined
afterEach(async () => {
  await app?.close(0)
  app = undefined
})

async function appWith(env: Record<string, string>, cases: Array<{ id: string, input: Record<string, unknown> }>) {
  app = createJudgeflow(loadConfig(env), { store: createSqliteStore(openDatabase(':memory:')) })
  await app.store.workflows.create(workflow)
  const dataset = await app.store.datasets.create('support', cases)
  return { app, dataset }
}

describe('a dataset run refused at its start', () => {
  it('names the required field the cases lack, how many and which, and starts nothing', async () => {
    const cases = [
      { id: 'q1', input: { question: 'Refund?' } },
      ...['q2', 'q3', 'q4', 'q5'].map(id => ({ id, input: { query: 'Refund?' } })),
    ]
    const { app, dataset } = await appWith({ OPENAI_API_KEY: 'sk-test' }, cases)
    const start = app.datasets.start({ dataset: 'support', target: { workflow_id: 'Support answers' } })
    await expect(start).rejects.toMatchObject({
      code: 'INVALID_INPUT', category: 'user',
      message: 'The dataset lacks "question", which the workflow\'s input step "in" requires: 4 of 5 cases lack it (q2, q3, q4, …); add it to the cases (a column of that name), or give the field a default.',
    })
    expect(await app.store.datasets.runs(dataset.id)).toEqual([])
  })

  it('takes a field given to every case by the request\'s vars, and a default, as present', async () => {
    const { app } = await appWith({}, [{ id: 'q1', input: {} }])
    // Past the fields, the next refusal is the key's.
    await expect(app.datasets.start({ dataset: 'support', target: { workflow_id: 'Support answers' }, vars: { question: 'Refund?' } })).rejects.toMatchObject({ code: 'MISSING_API_KEY' })
  })

  it('names the key the workflow\'s model needs in one sentence, and starts nothing', async () => {
    const { app, dataset } = await appWith({}, [{ id: 'q1', input: { question: 'Refund?' } }])
    await expect(app.datasets.start({ dataset: 'support', target: { workflow_id: 'Support answers' } })).rejects.toMatchObject({
      code: 'MISSING_API_KEY', category: 'user',
      message: 'OPENAI_API_KEY is not set: node "draft" uses openai:gpt-4o-mini. Set it in the environment, or pin this step\'s output to run offline.',
    })
    expect(await app.store.datasets.runs(dataset.id)).toEqual([])
  })
})
