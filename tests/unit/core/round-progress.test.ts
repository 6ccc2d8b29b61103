import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createJudgeflow, loadConfig, type Judgeflow } from '../../../core'
import type { RoundMessage } from '../../../core/round-progress'
import { experimentSchema } from '../../../engine/experiments'
import { FakeLLM } from '../../support/fake-llm'
import { reviewer } from '../../support/experiments'
import { createSqliteStore, openDatabase } from '../../../db'

const fake = new FakeLLM()
beforeAll(() => fake.start())
afterAll(() => fake.stop())

const apps: Judgeflow[] = []
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close(0)
  fake.reset()
})

async function appWithRound(name: string) {
  const app = createJudgeflow(loadConfig({ ...fake.env(), JUDGEFLOW_LLM_MAX_RETRIES: '0' }), { store: createSqliteStore(openDatabase(':memory:')) })
  apps.push(app)
  await app.store.workflows.create(reviewer)
  const experiment = await app.store.experiments.create(experimentSchema.parse({
    name, target: { workflow_id: 'Reviewer', node: 'review' }, variants: [{ id: 'a' }, { id: 'b', config: { prompt: 'Carefully review {{input.document}}' } }],
    current_best: 'a', runs_per_document: 1, judge_model: 'local:heuristic',
    documents: [{ id: 'd1', text: 'The supplier has unlimited liability.', problems: [{ id: 'P1', category: 'main', criteria: 'unlimited liability' }] }],
  }))
  return { app, experimentId: experiment.id }
}

function heard(app: Judgeflow, experimentId: string): Promise<Array<RoundMessage | null>> {
  return new Promise((resolve) => {
    const messages: Array<RoundMessage | null> = []
    const stop = app.rounds.follow(experimentId, 1, (message) => {
      messages.push(message)
      if (!message || message.event === 'round.finished') {
        queueMicrotask(stop)
        resolve(messages)
      }
    })
  })
}

describe('following a round', () => {
  it('each app follows its own rounds: a follower hears its round\'s progress to round.finished', async () => {
    fake.onRequest(() => ({ text: 'review: unlimited liability', delayMs: 50 }))
    const first = await appWithRound('first')
    const second = await appWithRound('second')
    await first.app.rounds.start(first.experimentId)
    const [one, two] = await Promise.all([heard(first.app, first.experimentId), (async () => {
      await second.app.rounds.start(second.experimentId)
      return heard(second.app, second.experimentId)
    })()])
    for (const messages of [one, two]) {
      expect(messages.at(-1)).toMatchObject({ event: 'round.finished' })
      expect(JSON.parse(messages.at(-1)!.data)).toMatchObject({ number: 1, status: 'finished', total: 2, done: 2, judged: 2 })
    }
  })
})
