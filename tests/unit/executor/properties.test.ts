import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createProviders, defaultRegistry, runWorkflow, validateWorkflow, type RunEvent } from '../../../engine'

const providers = createProviders({ env: {} })

/**
 * Random acyclic workflows: an input, then steps that each take edges only from earlier steps
 * (so no cycles), llm steps with pinned outputs, conditions on them (each with an edge from the step
 * it reads), outputs at the ends.
 */
const workflowArbitrary = fc.integer({ min: 1, max: 14 }).chain(n => fc.record({
  types: fc.array(fc.constantFrom('llm', 'condition', 'output'), { minLength: n, maxLength: n }),
  parents: fc.array(fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), { minLength: n, maxLength: n }),
  texts: fc.array(fc.string({ maxLength: 20 }), { minLength: n, maxLength: n }),
  branches: fc.array(fc.constantFrom(undefined, 'true', 'false'), { minLength: n * 3, maxLength: n * 3 }),
})).map(({ types, parents, texts, branches }) => {
  const nodes: Array<Record<string, unknown>> = [{ id: 'in', type: 'input', config: {} }]
  const edges: Array<{ from: string, to: string, when?: string }> = []
  types.forEach((type, i) => {
    const id = `n${i}`
    const earlier = nodes.filter(n => n.type !== 'output')
    const config = type === 'llm'
      ? { model: 'openai:gpt-4o-mini', prompt: `p${i}` }
      : type === 'condition' ? { left: `{{steps.${earlier.at(-1)!.id}}}`, op: 'truthy' } : { value: `v${i}` }
    nodes.push({ id, type, config, ...(type === 'llm' ? { pinned: [texts[i]!] } : {}) })
    const seen = new Set<string>()
    const read = type === 'condition' ? [earlier.length - 1] : []
    ;[...read, ...parents[i]!].forEach((p, k) => {
      const from = earlier[p % earlier.length]!
      if (seen.has(from.id as string)) return
      seen.add(from.id as string)
      const when = from.type === 'condition' ? branches[i * 3 + k] ?? 'true' : undefined
      edges.push({ from: from.id as string, to: id, ...(when ? { when } : {}) })
    })
  })
  return { name: 'random', nodes, edges }
})

async function execute(workflow: unknown) {
  const events: RunEvent[] = []
  const result = await runWorkflow(workflow, { registry: defaultRegistry, providers, onEvent: (e) => { events.push(e) } })
  return { result, events }
}

describe('properties of validation and execution', () => {
  it('validation never throws, whatever it is given', () => {
    fc.assert(fc.property(fc.anything(), (value) => {
      const outcome = validateWorkflow(value, defaultRegistry)
      expect(typeof outcome.ok).toBe('boolean')
    }), { numRuns: 300 })
    fc.assert(fc.property(workflowArbitrary, fc.array(fc.tuple(fc.nat(), fc.anything()), { maxLength: 3 }), (workflow, mutations) => {
      const mutated = structuredClone(workflow) as { nodes: Array<Record<string, unknown>> }
      for (const [at, value] of mutations) mutated.nodes[at % mutated.nodes.length]!.config = value as never
      expect(() => validateWorkflow(mutated, defaultRegistry)).not.toThrow()
    }), { numRuns: 200 })
  })

  it('random acyclic workflows validate, run to an end state, respect every dependency, and run the same twice', async () => {
    await fc.assert(fc.asyncProperty(workflowArbitrary, async (workflow) => {
      expect(validateWorkflow(workflow, defaultRegistry).problems).toEqual([])
      const first = await execute(workflow)
      expect(['succeeded', 'failed']).toContain(first.result.status)
      expect(first.events.filter(e => e.type === 'step.started').length).toBeGreaterThan(0)
      // A step starts only after every step it depends on has finished (succeeded or skipped).
      const finishedAt = new Map<string, number>()
      first.events.forEach((event, index) => {
        if (event.type === 'step.succeeded' || event.type === 'step.skipped' || event.type === 'step.failed') finishedAt.set(event.step.node_id, index)
        if (event.type === 'step.started') {
          for (const edge of workflow.edges.filter(e => e.to === event.node_id)) {
            expect(finishedAt.get(edge.from), `${edge.from} before ${edge.to}`).toBeLessThan(index)
          }
        }
      })
      const second = await execute(workflow)
      const summary = (r: typeof first.result) => Object.fromEntries(Object.entries(r.steps).map(([id, s]) => [id, [s.status, s.output]]))
      expect(summary(second.result)).toEqual(summary(first.result))
      expect(second.result.status).toBe(first.result.status)
    }), { numRuns: 60 })
  })
})
