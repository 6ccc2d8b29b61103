import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MAX_STEP_NAME, defaultRegistry, validateWorkflow } from '../../../engine'
import { templates } from '../../../server/utils/templates'

const minimal = (node: Record<string, unknown>) => ({
  name: 'named',
  nodes: [{ id: 'in', type: 'input', ...node }, { id: 'out', type: 'output', config: { value: '{{input}}' } }],
  edges: [{ from: 'in', to: 'out' }],
})

describe('a step\'s name', () => {
  it('is kept as given, beside the id references use', () => {
    const result = validateWorkflow(minimal({ name: 'Passed?' }), defaultRegistry)
    expect(result.ok).toBe(true)
    expect(result.workflow!.nodes[0]).toMatchObject({ id: 'in', name: 'Passed?' })
    // The file format round-trips it.
    const again = validateWorkflow(JSON.parse(JSON.stringify(result.workflow)), defaultRegistry)
    expect(again.workflow!.nodes[0]!.name).toBe('Passed?')
  })

  it('is refused past its limit, saying the limit', () => {
    const result = validateWorkflow(minimal({ name: 'x'.repeat(MAX_STEP_NAME + 1) }), defaultRegistry)
    expect(result.ok).toBe(false)
    expect(result.problems.map(p => p.message)).toEqual([`node "in": nodes[0].name: is longer than ${MAX_STEP_NAME} characters: shorten it (the id stays what references use)`])
  })

  it('is given to every step of every template, each different within its template', () => {
    for (const template of templates) {
      const nodes = template.definition.nodes as Array<{ id: string, name?: string }>
      expect(nodes.every(n => typeof n.name === 'string' && n.name.length > 0 && n.name.length <= 24), template.id).toBe(true)
      expect(new Set(nodes.map(n => n.name)).size, template.id).toBe(nodes.length)
      expect(validateWorkflow(template.definition, defaultRegistry).ok, template.id).toBe(true)
    }
    const gate = JSON.parse(readFileSync(join(import.meta.dirname, '../../../examples/quality-gate.json'), 'utf8')) as { nodes: Array<{ id: string, name: string }> }
    expect(Object.fromEntries(gate.nodes.map(n => [n.id, n.name]))).toEqual({ in: 'Question', draft: 'Draft', judge: 'Judge', check: 'Passed?', again: 'Retry', ok: 'Pass', ko: 'Fail' })
  })
})
