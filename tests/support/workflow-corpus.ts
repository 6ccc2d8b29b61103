import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { templates } from '../../server/utils/templates'

const examples = join(import.meta.dirname, '../../examples')
const readExample = (name: string) => JSON.parse(readFileSync(join(examples, name), 'utf8'))

/** An agent's reasoning trace, for the trace evaluation type. */
export const financeTrace = {
  metadata: { task_domain: 'finance', success: true },
  task: { objective: 'Analyze TSMC Q4 earnings report' },
  steps: [
    { step_id: 0, type: 'thought', content: 'Extracting revenue and margin data' },
    { step_id: 1, type: 'tool_call', tool: { name: 'financial_data_api' }, input: { ticker: 'TSM' } },
    { step_id: 2, type: 'observation', content: 'Revenue: $26.3B, up 14.3% YoY' },
  ],
  outcome: { result_summary: 'Strong quarter', confidence: 0.92 },
}

/** input → draft (pinned) → judge (an evaluator of this config) → out: one evaluation type, offline. */
function judged(name: string, judge: Record<string, unknown>) {
  return {
    name,
    nodes: [
      { id: 'in', type: 'input', config: { fields: { question: { type: 'string', default: 'How do I reset my password?' }, trace: { type: 'object' } } } },
      { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Answer: {{input.question}}' }, pinned: ['Open Settings, choose "Forgot password" and follow the emailed link.'] },
      { id: 'judge', type: 'evaluator', config: judge },
      { id: 'out', type: 'output', config: { verdict: 'pass', value: '{{steps.judge.overall_score}}' } },
    ],
    edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }, { from: 'judge', to: 'out' }],
  }
}

/** A workflow whose evaluator names no judge model (`judge`'s `model` left out). */
function withoutJudge(workflow: Record<string, any>) {
  const nodes = (workflow.nodes as Array<Record<string, any>>).map(n => (n.type === 'evaluator' ? { ...n, config: { ...n.config, model: undefined } } : n))
  return { ...workflow, name: `${workflow.name} without a judge`, nodes }
}

/** `calls`: it calls a model of the fake server, so it runs only with providers that have its key. */
export interface CorpusEntry { name: string, workflow: Record<string, any>, input: Record<string, unknown>, calls?: boolean }

/**
 * Every template and example workflow, with an input it runs on, and a workflow per evaluation type
 * the examples do not cover (and per optional field: samples, a metric suite's warnings, a judge
 * panel): all offline but the panels, which call a model beside the offline judge (`calls`).
 */
export function workflowCorpus(): CorpusEntry[] {
  const inputs: Record<string, Record<string, unknown>> = {
    'edit-gate-scorers.json': readExample('edit-gate-input.json'),
    'quality-gate-pinned.json': { question: 'How do I reset my password?' },
    'reviewer.json': { document: 'Clause 7 refers to section 12, which does not exist.' },
  }
  const fromExamples = readdirSync(examples).filter(f => f.endsWith('.json')).flatMap((file) => {
    const workflow = readExample(file)
    return Array.isArray(workflow.nodes) ? [{ name: `examples/${file}`, workflow, input: inputs[file] ?? {} }] : []
  })
  const fromTemplates = templates.map(t => ({ name: `template ${t.id}`, workflow: structuredClone(t.definition) as Record<string, any>, input: {} }))
  const rubric = readExample('judge.json')
  const perType = [
    judged('scoring', { evaluation_type: 'scoring', model: 'local:heuristic', samples: 2 }),
    judged('criteria with samples', { evaluation_type: 'criteria', model: 'local:heuristic', samples: 2, criteria: [{ name: 'relevance' }, { name: 'clarity' }] }),
    judged('rubric', { ...rubric, samples: 2 }),
    // Judge panels: the offline judge beside a model of the fake server (a run without its key fails before judging).
    judged('criteria panel', { evaluation_type: 'criteria', judges: ['local:heuristic', 'openai:gpt-4o-mini'], criteria: [{ name: 'relevance' }, { name: 'clarity' }] }),
    judged('scoring panel', { evaluation_type: 'scoring', judges: ['local:heuristic', 'openai:gpt-4o-mini'], panel: { aggregate: 'mean' } }),
    judged('metrics', { evaluation_type: 'metrics', model: 'local:heuristic' }),
    judged('metrics with an instruction', { evaluation_type: 'metrics', model: 'local:heuristic', metrics: [{ name: 'LLMPlain', system_instruction: 'Is it polite?' }] }),
    judged('trace', { evaluation_type: 'trace', trace: '{{input.trace}}', trace_options: { fresh_cache: true } }),
    // No judge named: without a key the offline judge stands in and says so (warnings); with one, the default judge is asked.
    judged('scoring without a judge', { evaluation_type: 'scoring' }),
    judged('criteria without a judge', { evaluation_type: 'criteria', criteria: [{ name: 'relevance' }] }),
    judged('rubric without a judge', { ...rubric, model: undefined }),
  ].map(workflow => ({ name: `evaluator ${workflow.name}`, workflow, input: { trace: financeTrace }, calls: JSON.stringify(workflow.nodes.find(n => n.id === 'judge')!.config).includes('openai:') }))
  const abTest = withoutJudge(readExample('ab-test.json'))
  return [...fromTemplates, ...fromExamples, ...perType, { name: `examples/${abTest.name}`, workflow: abTest, input: {} }]
}
