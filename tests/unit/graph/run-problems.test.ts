import { describe, expect, it } from 'vitest'
import { runProblems } from '../../../engine/graph/graph-defaults'
import { stepSpecs } from '../../../engine/steps/specs'
import { workflowSchema } from '../../../engine/schema/workflow'

const specs = stepSpecs()
const workflow = (nodes: unknown[], edges: unknown[] = []) => workflowSchema.parse({ name: 'w', nodes, edges })
const messages = (w: ReturnType<typeof workflow>) => runProblems(w, specs).map(p => `${p.path}: ${p.message.replace(/^node "[^"]+": \S+: /, '')}`)

describe('what a run would refuse, found before it', () => {
  it('flags an evaluator with nothing to judge, a criteria evaluator without criteria and another type\'s settings', () => {
    expect(messages(workflow([{ id: 'judge', type: 'evaluator', config: { evaluation_type: 'scoring' } }]))).toEqual([
      expect.stringMatching(/^nodes\.judge\.config\.content: is not set: set it to the text to judge/),
    ])
    const llm = { id: 'draft', type: 'llm', config: { model: 'local:heuristic', prompt: 'p' } }
    const edges = [{ from: 'draft', to: 'judge' }]
    expect(messages(workflow([llm, { id: 'judge', type: 'evaluator', config: { evaluation_type: 'criteria' } }], edges))).toEqual([
      'nodes.judge.config.criteria: needs at least one criterion for evaluation_type "criteria"',
    ])
    expect(messages(workflow([llm, { id: 'judge', type: 'evaluator', config: { evaluation_type: 'criteria', criteria: [{ name: 'a' }], metrics: [{ name: 'Relevance' }], preset: 'strict' } }], edges))).toEqual([
      'nodes.judge.config.metrics: is only used by evaluation_type "metrics"',
      'nodes.judge.config.preset: is only used by evaluation_type "scorers"',
    ])
  })

  it('passes what runs, a pinned step and a config read from a file', () => {
    const llm = { id: 'draft', type: 'llm', config: { model: 'local:heuristic', prompt: 'p' } }
    expect(messages(workflow([llm, { id: 'judge', type: 'evaluator', config: { evaluation_type: 'criteria', criteria: [{ name: 'a' }] } }], [{ from: 'draft', to: 'judge' }]))).toEqual([])
    expect(messages(workflow([{ id: 'judge', type: 'evaluator', config: { evaluation_type: 'criteria' }, pinned: [{ passed: true }] }]))).toEqual([])
    expect(messages(workflow([{ id: 'judge', type: 'evaluator', config: { config_file: 'judge.json' } }]))).toEqual([])
  })
})
