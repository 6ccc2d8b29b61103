/**
 * The estimate before a dataset run (`POST /api/dataset-runs/estimate`, and the start of every run)
 * on 50,000 cases × a 200-step workflow, in an app on SQLite in memory: the dataset's read, the
 * workflow's check and the estimate from the prompts, all on the server's thread. Nothing else runs
 * meanwhile, so the time is how long the request holds the event loop.
 */
import { createJudgeflow, loadConfig } from '../core'
import { createSqliteStore, openDatabase } from '../db'
import { estimateFromPrompts } from '../engine/datasets/estimate'
import { median, report } from './lib'

const CASES = 50_000

/** An input step, 100 LLM steps that each reference two input fields, and a criteria judge after 99 of them. */
function bigWorkflow() {
  const nodes: Array<{ id: string, type: string, config: Record<string, unknown> }> = [
    { id: 'in', type: 'input', config: { fields: { question: { type: 'string', required: true }, context: { type: 'string' } } } },
  ]
  const edges: Array<{ from: string, to: string }> = []
  for (let i = 0; i < 100; i++) {
    nodes.push({ id: `llm_${i}`, type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: `Step ${i}: answer {{input.question}} using {{input.context}}`, system: 'Be brief.' } })
    edges.push({ from: 'in', to: `llm_${i}` })
  }
  for (let i = 0; i < 99; i++) {
    nodes.push({ id: `judge_${i}`, type: 'evaluator', config: { evaluation_type: 'criteria', model: 'openai:gpt-4o-mini', pass_threshold: 0.7, criteria: [{ name: 'helpful', description: 'Helps', weight: 1 }] } })
    edges.push({ from: `llm_${i}`, to: `judge_${i}` })
  }
  return { name: 'bench estimate', nodes, edges }
}

/** The longest gap between two turns of the event loop while it runs: a turn every millisecond or so when nothing holds it. */
function loopProbe() {
  let last = performance.now()
  let longest = 0
  const timer = setInterval(() => {
    const now = performance.now()
    longest = Math.max(longest, now - last)
    last = now
  }, 1)
  return {
    stop() {
      clearInterval(timer)
      return Math.max(longest, performance.now() - last)
    },
  }
}

export async function benchDatasetEstimate() {
  const workflow = bigWorkflow()
  const cases = Array.from({ length: CASES }, (_, i) => ({ id: `c${i}`, input: { question: `question number ${i}?`, context: `context ${i} `.repeat(5) } }))
  const app = createJudgeflow(loadConfig({ OPENAI_API_KEY: 'bench' }), { store: createSqliteStore(openDatabase(':memory:')) })
  try {
    await app.store.workflows.create(workflow)
    await app.store.datasets.create('bench estimate', cases)
    const request = { dataset: 'bench estimate', target: { workflow_id: workflow.name } }
    const times: number[] = []
    const blocks: number[] = []
    for (let i = 0; i < 6; i++) {
      const probe = loopProbe()
      await new Promise(resolve => setTimeout(resolve, 5))
      const t0 = performance.now()
      await app.datasets.estimate(request)
      times.push(performance.now() - t0)
      await new Promise(resolve => setTimeout(resolve, 5))
      blocks.push(probe.stop())
    }
    report({ name: 'dataset run estimate, 50,000 cases × 200 steps: the longest the event loop is held, first request / median of 5 more', value: blocks[0]!, unit: 'ms', target: '<= 200' })
    report({ name: 'the same, median of 5 more', value: median(blocks.slice(1)), unit: 'ms', target: '<= 200' })
    report({ name: 'the request\'s whole work (the dataset read, the workflow\'s check, the estimate), first / median of 5 more', value: times[0]!, unit: 'ms', target: 'reported' })
    report({ name: 'the same, median of 5 more', value: median(times.slice(1)), unit: 'ms', target: 'reported' })
    const alone: number[] = []
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now()
      estimateFromPrompts(workflow, cases, 1, 'local:heuristic')
      alone.push(performance.now() - t0)
    }
    report({ name: 'its estimate from the prompts alone, median of 5', value: median(alone), unit: 'ms', target: 'reported' })
  }
  finally {
    await app.close(0)
  }
}
