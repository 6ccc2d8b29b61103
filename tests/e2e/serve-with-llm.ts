// Serves the built app for the browser tests that need an LLM provider: a fresh database and the
// fake LLM server on loopback as OpenAI's and Anthropic's endpoint. The fake answers a prompt that
// contains "slowly" after a minute, so a run stays in its LLM step until it is cancelled.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { FakeLLM, lastUserText } from '../support/fake-llm'

const fake = await new FakeLLM()
  .onRequest(request => ({ text: `echo: ${lastUserText(request).slice(0, 80)}`, delayMs: lastUserText(request).includes('slowly') ? 60_000 : 0 }))
  .start()
Object.assign(process.env, fake.env(), { HOST: '127.0.0.1', JUDGEFLOW_DB: join(mkdtempSync(join(tmpdir(), 'judgeflow-e2e-')), 'judgeflow.db') })
await import(resolve(import.meta.dirname, '../../.output/server/index.mjs'))
