import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createProviders, evaluate, EvaluationPool, type ProviderAdapter } from '../engine'
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
    const panel: number[] = []
    for (let i = 0; i < 6; i++) {
      let t0 = performance.now()
      await evaluate({ evaluation_type: 'scoring', model: 'openai:gpt-4o-mini', cache: false }, input, { providers: real })
      single.push(performance.now() - t0)
      t0 = performance.now()
      await evaluate({ evaluation_type: 'comparison', model: 'openai:gpt-4o-mini', cache: false }, { context: input.context, candidates }, { providers: real })
      comparison.push(performance.now() - t0)
      t0 = performance.now()
      await evaluate({ evaluation_type: 'scoring', judges: ['openai:gpt-4o-mini', 'openai:gpt-4.1-mini', 'openai:gpt-4o'], cache: false }, input, { providers: real })
      panel.push(performance.now() - t0)
    }
    report({ name: '4-candidate comparison wall time relative to one judge call (200 ms fake judge latency)', value: median(comparison) / median(single), unit: '×', target: '<= 3' })
    report({ name: '3-judge panel wall time relative to one judge (scoring, 200 ms fake judge latency)', value: median(panel) / median(single), unit: '×', target: '<= 1.2' })
  }
  finally {
    await fake.stop()
  }
}

const distinctNumbers = (count: number, offset: number) => Array.from({ length: count }, (_, i) => String(i * 7 + offset)).join(' ')

/** The offline judge on large inputs, in process: the work must grow with the text, not with its square or with criteria × samples. */
export async function benchHeuristic() {
  const providers = createProviders({ env: {} })
  const numbers = { content: distinctNumbers(20_000, 1), reference: distinctNumbers(20_000, 3) }
  const accuracy = { evaluation_type: 'criteria', model: 'local:heuristic', criteria: [{ name: 'accuracy' }] }
  const times: number[] = []
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now()
    await evaluate(accuracy, numbers, { providers, runner: null })
    times.push(performance.now() - t0)
  }
  report({ name: 'offline judge: accuracy of 20,000 distinct numbers against 20,000 in the reference (229 KB; median of 5)', value: median(times), unit: 'ms', target: '<= 1500' })

  const answer = 'Open Settings and choose Forgot password. Then follow the emailed link, which expires in 30 minutes. '.repeat(60)
  const criteria = Array.from({ length: 50 }, (_, i) => ({ name: `criterion_${i}`, description: `covers step ${i} of the password reset` }))
  const many = { evaluation_type: 'criteria', model: 'local:heuristic', criteria, samples: 10 }
  const input = { content: answer, context: 'How do I reset my password?', reference: answer }
  times.length = 0
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now()
    await evaluate(many, input, { providers, runner: null })
    times.push(performance.now() - t0)
  }
  report({ name: 'offline judge: 50 criteria × 10 samples, 6 KB answer and reference (median of 5)', value: median(times), unit: 'ms', target: '<= 100' })

  // The worker pool as the built server runs it (`npx nuxt build` first).
  const bundle = resolve(import.meta.dirname, '../.output/server/evaluation-worker.mjs')
  if (!existsSync(bundle)) {
    console.log(JSON.stringify({ name: 'evaluation worker figures', skipped: `no ${bundle}: run npx nuxt build` }))
    return
  }
  const small = { content: 'Open Settings and choose Forgot password.', context: 'How do I reset my password?' }
  const config = { evaluation_type: 'criteria', model: 'local:heuristic', criteria: [{ name: 'relevance' }, { name: 'clarity' }] }
  const cold: number[] = []
  const warm: number[] = []
  for (let round = 0; round < 5; round++) {
    const pool = new EvaluationPool({ entry: pathToFileURL(bundle), size: 1 })
    let t0 = performance.now()
    await evaluate(config, small, { providers, runner: pool })
    cold.push(performance.now() - t0)
    for (let i = 0; i < 100; i++) {
      t0 = performance.now()
      await evaluate(config, small, { providers, runner: pool })
      if (i >= 20) warm.push(performance.now() - t0)
    }
    await pool.close()
  }
  const inPlace: number[] = []
  for (let i = 0; i < 100; i++) {
    const t0 = performance.now()
    await evaluate(config, small, { providers, runner: null })
    if (i >= 20) inPlace.push(performance.now() - t0)
  }
  report({ name: 'evaluation worker: first evaluation on a new worker (start-up included; median of 5)', value: median(cold), unit: 'ms', target: '<= 1000' })
  report({ name: 'evaluation worker: a small offline evaluation on a started worker, minus the same in process (median)', value: median(warm) - median(inPlace), unit: 'ms', target: '<= 2' })
}
