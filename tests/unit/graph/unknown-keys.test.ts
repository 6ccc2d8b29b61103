import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defaultRegistry, validateWorkflow, workflowSchema } from '../../../engine'
import { stepSpecs } from '../../../engine/steps/specs'
import { SCORER_OPTIONS } from '../../../engine/schema/scorers'
import { builtinScorers } from '../../../engine/scorers'

/** A workflow with one evaluator, then a condition, a retry and an output: each config given in full. */
function gate(judge: Record<string, unknown>, patch: (wf: Record<string, any>) => void = () => {}) {
  const wf: Record<string, any> = {
    name: 'gate',
    description: 'a gate',
    settings: { concurrency: 2 },
    nodes: [
      { id: 'in', type: 'input', config: { fields: { question: { type: 'string', required: true } } }, position: { x: 0, y: 0 } },
      { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: '{{input.question}}' } },
      { id: 'judge', type: 'evaluator', config: { content: '{{steps.draft.text}}', ...judge } },
      { id: 'check', type: 'condition', config: { left: '{{steps.judge.passed}}', op: 'truthy' } },
      { id: 'again', type: 'retry', config: { target: 'draft', max_attempts: 2 } },
      { id: 'out', type: 'output', config: { value: '{{steps.draft.text}}', verdict: 'pass' } },
    ],
    edges: [
      { from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }, { from: 'judge', to: 'check' },
      { from: 'check', to: 'out', when: 'true' }, { from: 'check', to: 'again', when: 'false' },
    ],
  }
  patch(wf)
  return wf
}
const criteria = { evaluation_type: 'criteria', criteria: [{ name: 'accuracy', weight: 0.5 }, { name: 'clarity', weight: 0.5 }] }
const node = (wf: Record<string, any>, id: string) => wf.nodes.find((n: { id: string }) => n.id === id)

/** The editor (browser-safe specs) and the server (the registry) find the same problems. */
function problems(wf: unknown) {
  const server = validateWorkflow(wf, defaultRegistry).problems
  expect(validateWorkflow(wf, stepSpecs()).problems).toEqual(server)
  return server.map(p => ({ path: p.path, message: p.message }))
}

describe('an unknown key at any depth is refused with its path and the nearest known key', () => {
  it('accepts the workflow as written', () => {
    expect(problems(gate(criteria))).toEqual([])
    expect(problems(gate({ evaluation_type: 'rubric', rubric: { grades: [{ grade: 'A', min_score: 0.8 }, { grade: 'F', min_score: 0 }] } }))).toEqual([])
    expect(problems(gate({ evaluation_type: 'scorers', expected: 'x', scorers: [{ type: 'numeric-diff', threshold: 0.9, options: { tolerance: 1 } }] }))).toEqual([])
  })

  it.each([
    ['criteria[0].wieght', { ...criteria, criteria: [{ name: 'accuracy', wieght: 0.5 }] }, 'nodes.judge.config.criteria[0]', 'wieght', 'weight'],
    ['scorers[0].treshold', { evaluation_type: 'scorers', expected: 'x', scorers: [{ type: 'exact-match', treshold: 0.9 }] }, 'nodes.judge.config.scorers[0]', 'treshold', 'threshold'],
    ['a scorer\'s options', { evaluation_type: 'scorers', expected: '3', scorers: [{ type: 'numeric-diff', options: { tolerence: 1 } }] }, 'nodes.judge.config.scorers[0].options', 'tolerence', 'tolerance'],
    ['a key in rubric', { evaluation_type: 'rubric', rubric: { grade: [{ grade: 'A', min_score: 0 }] } }, 'nodes.judge.config.rubric', 'grade', 'grades'],
    ['rubric.grades[0]', { evaluation_type: 'rubric', rubric: { grades: [{ grade: 'A', min_scor: 0 }] } }, 'nodes.judge.config.rubric.grades[0]', 'min_scor', 'min_score'],
    ['trace settings', { evaluation_type: 'trace', trace: {}, trace_options: { fresh_cach: true } }, 'nodes.judge.config.trace_options', 'fresh_cach', 'fresh_cache'],
    ['a trace profile', { evaluation_type: 'trace', trace: {}, trace_options: { profiles: { p: { complexity: 0.25, novelty: 0.25, tool_diversty: 0.25, outcome_confidence: 0.25 } } } }, 'nodes.judge.config.trace_options.profiles.p', 'tool_diversty', 'tool_diversity'],
  ])('%s', (_, judge, at, key, near) => {
    // A misspelt required key is also reported missing, under its right name.
    const where = key === 'tolerence' ? ' in the options of scorer "numeric-diff"' : ''
    expect(problems(gate(judge))).toContainEqual({ path: `${at}.${key}`, message: `node "judge": ${at}: unknown key "${key}"${where}: did you mean "${near}"?` })
  })

  it.each([
    ['an output step\'s verdict', (wf: any) => { node(wf, 'out').config = { value: 'x', verdikt: 'fail' } }, 'nodes.out.config', 'verdikt', 'verdict', 'out'],
    ['an LLM config', (wf: any) => { node(wf, 'draft').config.temprature = 0 }, 'nodes.draft.config', 'temprature', 'temperature', 'draft'],
    ['a condition config', (wf: any) => { node(wf, 'check').config.ignorecase = true }, 'nodes.check.config', 'ignorecase', 'ignore_case', 'check'],
    ['a retry config', (wf: any) => { node(wf, 'again').config.max_atempts = 3 }, 'nodes.again.config', 'max_atempts', 'max_attempts', 'again'],
    ['an input field', (wf: any) => { node(wf, 'in').config.fields.question.requred = true }, 'nodes.in.config.fields.question', 'requred', 'required', 'in'],
  ])('%s', (_, patch, at, key, near, id) => {
    expect(problems(gate(criteria, patch))).toEqual([{ path: `${at}.${key}`, message: `node "${id}": ${at}: unknown key "${key}": did you mean "${near}"?` }])
  })

  it.each([
    ['a node', (wf: any) => { node(wf, 'draft').positon = { x: 1, y: 1 } }, 'nodes[1]', 'positon', 'position', 'node "draft": '],
    ['a node\'s position', (wf: any) => { node(wf, 'draft').position = { x: 1, yy: 1 } }, 'nodes[1].position', 'yy', 'y', 'node "draft": '],
    ['an edge', (wf: any) => { wf.edges[3].wen = 'true' }, 'edges[3]', 'wen', 'when', ''],
    ['the settings', (wf: any) => { wf.settings.concurency = 2 }, 'settings', 'concurency', 'concurrency', ''],
    ['the workflow', (wf: any) => { wf.desciption = 'x' }, 'workflow', 'desciption', 'description', ''],
  ])('%s', (_, patch, at, key, near, prefix) => {
    const path = at === 'workflow' ? key : `${at}.${key}`
    expect(problems(gate(criteria, patch))).toContainEqual({ path, message: `${prefix}${at}: unknown key "${key}": did you mean "${near}"?` })
  })

  it('a key nothing is near is refused with the known keys; a credential is told where it belongs', () => {
    expect(problems(gate({ ...criteria, criteria: [{ name: 'accuracy', colour: 'red' }] }))[0]!.message)
      .toBe('node "judge": nodes.judge.config.criteria[0]: unknown key "colour": known keys are name, description, weight')
    expect(problems(gate(criteria, (wf: any) => { node(wf, 'draft').config.api_key = 'sk-x' }))[0]!.message)
      .toBe('node "draft": nodes.draft.config: "api_key" is not a setting: API keys are read only from the environment (OPENAI_API_KEY, ANTHROPIC_API_KEY), never from a config')
  })

  it('a schema extended from a strict one names its own keys too', () => {
    const update = workflowSchema.extend({ base_version: z.number().optional() })
    const parsed = update.safeParse({ name: 'w', nodes: [{ id: 'a', type: 'input' }], base_versoin: 2 })
    expect(parsed.error?.issues.map(i => i.message)).toEqual(['unknown key "base_versoin": did you mean "base_version"?'])
  })

  it('values a user defines stay free: an output\'s value, an input default, pinned outputs, a custom scorer\'s options', () => {
    expect(problems(gate({ evaluation_type: 'scorers', expected: 'x', scorers: [{ type: 'my-scorer', options: { anything: 1 } }] }, (wf: any) => {
      node(wf, 'out').config.value = { any: { shape: true } }
      node(wf, 'in').config.fields.question.default = { nested: 1 }
      node(wf, 'draft').pinned = [{ text: 'a', extra: 1 }]
    }))).toEqual([])
  })
})

describe('the options each built-in scorer reads', () => {
  it('are the ones its config accepts, for every built-in scorer', () => {
    expect(Object.keys(SCORER_OPTIONS).sort()).toEqual(builtinScorers.map(s => s.type).sort())
    const samples: Array<[unknown, unknown]> = [['a b', 'a'], ['{"a":1}', { a: 1 }], ['3', '3'], [{ operations: [], blocks: [], durationMs: 5 }, { operations: [], patterns: [] }], [undefined, undefined]]
    for (const scorer of builtinScorers) {
      const read = new Set<string>()
      const options = new Proxy({}, { get: (_, key) => { if (typeof key === 'string') read.add(key); return undefined } })
      for (const [actual, expected] of samples) {
        try {
          scorer.measure(actual, expected, { original: { blocks: [] }, options })
        }
        catch { /* a sample this scorer cannot take: the keys read before count all the same */ }
      }
      expect([...read].filter(key => !SCORER_OPTIONS[scorer.type]!.includes(key)), scorer.type).toEqual([])
    }
  })
})
