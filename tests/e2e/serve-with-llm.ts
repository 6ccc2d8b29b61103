// Serves the built app as serve.mjs does, with the fake LLM server on loopback as OpenAI's and
// Anthropic's endpoint, for the browser tests that need an LLM provider. The fake answers a prompt
// that contains "slowly" after a minute, so a run stays in its LLM step until it is cancelled.
import { FakeLLM, lastUserText } from '../support/fake-llm'

const fake = await new FakeLLM()
  .onRequest((request) => {
    const text = lastUserText(request)
    return { text: `echo: ${text.slice(0, 80)}`, delayMs: text.includes('slowly') ? 60_000 : 0 }
  })
  .start()
Object.assign(process.env, fake.env())
await import('./serve.mjs')
