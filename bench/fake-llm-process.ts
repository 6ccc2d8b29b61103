/**
 * The fake LLM server in a process of its own, for benchmarks that measure the app alone: every
 * answer after LATENCY_MS; a judge's (structured output) scores an answer holding "vague" low.
 * Tells its parent its base URL, and answers { count } with how many requests it served.
 */
import { FakeLLM } from '../tests/support/fake-llm'

const latencyMs = Number(process.env.FAKE_LLM_LATENCY_MS) || 200
const fake = await new FakeLLM().start()
fake.onRequest((request) => {
  const vague = JSON.stringify(request.body.messages).includes('vague')
  if (request.body.response_format) {
    return { json: { criteria_scores: { helpful: vague ? 0.3 : 0.9 }, feedback: vague ? 'Vague.' : 'Helpful.', suggestions: [] }, delayMs: latencyMs }
  }
  return { text: vague ? 'a vague reply' : 'a helpful answer', delayMs: latencyMs }
})
process.on('message', (message: { type?: string }) => {
  if (message.type === 'count') process.send!({ count: fake.requests.length })
  if (message.type === 'reset') {
    fake.requests.length = 0
    process.send!({ reset: true })
  }
})
process.send!({ url: fake.openaiBaseURL, env: fake.env() })
