import { createProviders, evaluate, type ProviderAdapter } from '../engine'
import { FakeLLM, lastUserText } from '../tests/support/fake-llm'
import { median, report } from './lib'

const input = { context: 'How do I reset my password?', content: 'Open Settings, choose "Forgot password" and follow the emailed link.' }
const config = {
  evaluation_type: 'criteria' as const, model: 'inproc:judge', cache: false,
  criteria: [{ name: 'relevance', weight: 0.4 }, { name: 'completeness', weight: 0.3 }, { name: 'clarity', weight: 0.3 }],
}

/** A judge answering in-process at once: what remains of the time is the evaluator's own work. */
const instantJudge: ProviderAdapter = {
  id: 'inproc',
  async send(model) {
    const json = { criteria_scores: { relevance: 0.9, completeness: 0.8, clarity: 0.7 }, criteria_reasons: { relevance: 'r', completeness: 'c', clarity: 'cl' }, feedback: 'ok', suggestions: [] }
    return { text: JSON.stringify(json), json, model, usage: { input_tokens: 0, output_tokens: 0 } }
  },
}

export async function benchEvaluator() {
  const providers = createProviders({ env: {}, adapters: [instantJudge] })
  const times: number[] = []
  for (let i = 0; i < 300; i++) {
    const t0 = performance.now()
    await evaluate(config, input, { providers })
    if (i >= 50) times.push(performance.now() - t0)
  }
  report({ name: 'evaluator overhead beyond the judge (criteria, 3 criteria, judge answering at once)', value: median(times), unit: 'ms', target: '<= 2' })

  const fake = await new FakeLLM().start()
  try {
    fake.onRequest((request) => {
      const schema = request.body.response_format.json_schema
      if (schema.name === 'evaluation') return { delayMs: 200, json: { criteria_scores: { overall: 0.8 }, criteria_reasons: { overall: 'x' }, feedback: '', suggestions: [] } }
      const labels = Object.keys(schema.schema.properties.candidates.properties)
      return { delayMs: 200, json: { candidates: Object.fromEntries(labels.map((l, i) => [l, { criteria_scores: { overall: 0.5 + i / 10 }, reason: lastUserText(request).length ? 'x' : '' }])), feedback: '', suggestions: [] } }
    })
    const real = createProviders({ env: fake.env() })
    const candidates = ['one answer', 'another answer', 'a third answer', 'a fourth answer']
    const single: number[] = []
    const comparison: number[] = []
    for (let i = 0; i < 6; i++) {
      let t0 = performance.now()
      await evaluate({ evaluation_type: 'scoring', model: 'openai:gpt-4o-mini', cache: false }, input, { providers: real })
      single.push(performance.now() - t0)
      t0 = performance.now()
      await evaluate({ evaluation_type: 'comparison', model: 'openai:gpt-4o-mini', cache: false }, { context: input.context, candidates }, { providers: real })
      comparison.push(performance.now() - t0)
    }
    report({ name: '4-candidate comparison wall time relative to one judge call (200 ms fake judge latency)', value: median(comparison) / median(single), unit: '×', target: '<= 3' })
  }
  finally {
    await fake.stop()
  }
}
