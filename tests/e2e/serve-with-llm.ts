// Serves the built app as serve.mjs does, with the fake LLM server on loopback as OpenAI's and
// Anthropic's endpoint, for the browser tests that need an LLM provider. The fake answers a prompt
// that contains "slowly" after a minute, so a run stays in its LLM step until it is cancelled.
// Judge models named panel-* answer a criteria judge's question with scores for each criterion its
// JSON Schema names: panel-yes 0.9, panel-no 0.2, panel-split 0.9 when the text names judgeflow.
import { FakeLLM, lastUserText, type RecordedRequest } from '../support/fake-llm'

function panelAnswer(request: RecordedRequest, model: string) {
  type Schema = { json_schema?: { schema?: { properties?: { criteria_scores?: { properties?: Record<string, unknown> } } } } }
  const names = Object.keys((request.body.response_format as Schema | undefined)?.json_schema?.schema?.properties?.criteria_scores?.properties ?? {})
  const score = model === 'panel-yes' || (model === 'panel-split' && lastUserText(request).includes('judgeflow')) ? 0.9 : 0.2
  const each = (value: unknown) => Object.fromEntries(names.map(name => [name, value]))
  return { json: { criteria_scores: each(score), criteria_reasons: each(`${model} gave ${score}`), feedback: `${model} gave ${score}`, suggestions: [] } }
}

const fake = await new FakeLLM()
  .onRequest((request) => {
    const model = String(request.body.model)
    if (model.startsWith('panel-')) return panelAnswer(request, model)
    const text = lastUserText(request)
    return { text: `echo: ${text.slice(0, 80)}`, delayMs: text.includes('slowly') ? 60_000 : 0 }
  })
  .start()
Object.assign(process.env, fake.env())
await import('./serve.mjs')
