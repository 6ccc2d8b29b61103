import { describe, expect, it } from 'vitest'
import { defaultRegistry, topologicalOrder, buildGraph, validateWorkflow } from '../../../engine'
import { qualityGate } from '../../support/workflows'

describe('validateWorkflow', () => {
  it('accepts the quality gate: draft, judge, condition, retry, outputs', () => {
    const result = validateWorkflow(qualityGate(['a'], [true]), defaultRegistry)
    expect(result.problems).toEqual([])
    expect(result.ok).toBe(true)
  })

  it('reports every problem at once, each with its node id', () => {
    const result = validateWorkflow({
      name: 'broken',
      nodes: [
        { id: 'a', type: 'input' },
        { id: 'a', type: 'output' },
        { id: 'b', type: 'teleport' },
        { id: 'c', type: 'llm', config: { model: 'gpt-4o', prompt: 'Use {{steps.ghost.text}}', temperature: 5 } },
        { id: 'd', type: 'condition', config: { left: 1, op: 'approx', right: 2 } },
        { id: 'e', type: 'output' },
        { id: 'f', type: 'output' },
        { id: 'r', type: 'retry', config: { target: 'e', max_attempts: 2 } },
        { id: 'r2', type: 'retry', config: { target: 'nowhere', max_attempts: 2 } },
      ],
      edges: [
        { from: 'a', to: 'missing' },
        { from: 'e', to: 'f' }, { from: 'f', to: 'e' },
        { from: 'd', to: 'e', when: 'maybe' },
      ],
    }, defaultRegistry)
    expect(result.ok).toBe(false)
    const byCode = (code: string) => result.problems.filter(p => p.code === code)
    expect(byCode('duplicate_node')).toMatchObject([{ node: 'a' }])
    expect(byCode('unknown_type')).toMatchObject([{ node: 'b', message: expect.stringContaining('unknown step type "teleport"') }])
    expect(byCode('invalid_config').map(p => p.path)).toEqual(expect.arrayContaining(['nodes.c.config.model', 'nodes.c.config.temperature', 'nodes.d.config.op']))
    expect(byCode('invalid_reference')).toMatchObject([{ node: 'c', path: 'nodes.c.config.prompt', message: expect.stringContaining('node "ghost", which does not exist') }])
    expect(byCode('missing_node').map(p => p.message)).toEqual(expect.arrayContaining([
      'edge a → missing: node "missing" does not exist',
      'node "r2": target "nowhere" is not a node of this workflow',
    ]))
    expect(byCode('invalid_branch')).toMatchObject([{ node: 'd', message: expect.stringContaining('"maybe" is not a branch of condition node "d" (branches: true, false)') }])
    expect(byCode('cycle')).toHaveLength(1)
    expect(byCode('cycle')[0]!.message).toContain('"e" → "f"')
    expect(byCode('invalid_retry_target')).toMatchObject([{ node: 'r', message: expect.stringContaining('retry target "e" must be upstream of the retry node') }])
  })

  it('names the node when the shape itself is wrong', () => {
    const result = validateWorkflow({ name: 'x', nodes: [{ id: 'ok', type: 'input' }, { id: 'bad id!', type: 'input' }] }, defaultRegistry)
    expect(result.problems).toMatchObject([{ code: 'invalid_shape', path: 'nodes[1].id', node: 'bad id!' }])
  })

  it('refuses a workflow without nodes or name', () => {
    const result = validateWorkflow({ nodes: [] }, defaultRegistry)
    expect(result.problems.map(p => p.path)).toEqual(['name', 'nodes'])
  })

  it('refuses pinned outputs on a retry', () => {
    const wf = qualityGate(['a'], [true])
    ;(wf.nodes[4] as Record<string, unknown>).pinned = ['x']
    expect(validateWorkflow(wf, defaultRegistry).problems).toMatchObject([{ node: 'again', path: 'nodes.again.pinned' }])
  })
})

describe('topologicalOrder', () => {
  it('orders by dependencies and reports cyclic nodes', () => {
    const graph = buildGraph({ nodes: ['a', 'b', 'c', 'd'].map(id => ({ id, type: 'output', config: {} })), edges: [{ from: 'b', to: 'a' }, { from: 'a', to: 'c' }, { from: 'd', to: 'd' }] })
    const { order, cyclic } = topologicalOrder(graph)
    expect(order).toEqual(['b', 'a', 'c'])
    expect(cyclic).toEqual(['d'])
  })
})
