import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { builtinSteps, createProviders, defaultRegistry, defineStep, MAX_REFERENCE_DEPTH, runWorkflow, StepRegistry, validateWorkflow, type RunEvent } from '../../../engine'
import { MAX_VALUE_DEPTH } from '../../../engine/text/safe-json'
import { loadConfig, RunService } from '../../../core'
import { createSqliteStore, openDatabase } from '../../../db'

const providers = createProviders({ env: {} })

describe('limits, each with a clear error', () => {
  it('a step whose rendered text is over the limit fails, naming the node, the field and both sizes', async () => {
    // JUDGEFLOW_MAX_STEP_TEXT=100, as the configuration reads it.
    const { limits } = loadConfig({ JUDGEFLOW_MAX_STEP_TEXT: '100' })
    const result = await runWorkflow({
      name: 'long',
      nodes: [{ id: 'in', type: 'input' }, { id: 'out', type: 'output', config: { value: { text: '{{input.text}}' } } }],
      edges: [{ from: 'in', to: 'out' }],
    }, { registry: defaultRegistry, providers, input: { text: 'x'.repeat(101) }, limits })
    expect(result.status).toBe('failed')
    expect(result.error?.message).toBe('node "out": config.value.text is 101 characters after rendering references, over the limit of 100 (JUDGEFLOW_MAX_STEP_TEXT)')
  })

  it('a value nested deeper than MAX_VALUE_DEPTH fails its step, naming the node and where, and is not kept', async () => {
    const nest = (levels: number, leaf: unknown): unknown => JSON.parse(`${'{"a":'.repeat(levels)}${JSON.stringify(leaf)}${'}'.repeat(levels)}`)
    // Each output nests the one before it 900 levels deeper: the third passes the limit once rendered.
    const chain = {
      name: 'chain',
      nodes: [0, 1, 2].map(i => ({ id: `o${i}`, type: 'output', config: { value: nest(900, i ? `{{steps.o${i - 1}.value}}` : 'x') } })),
      edges: [{ from: 'o0', to: 'o1' }, { from: 'o1', to: 'o2' }],
    }
    const events: RunEvent[] = []
    const rendered = await runWorkflow(chain, { registry: defaultRegistry, providers, onEvent: (event) => { events.push(event) } })
    const failedStep = (id: string) => events.flatMap(e => (e.type === 'step.failed' && e.step.node_id === id ? [e.step] : []))[0]
    expect(rendered.status).toBe('failed')
    expect(rendered.error?.message).toMatch(new RegExp(`^node "o2": its config nests objects and arrays more than ${MAX_VALUE_DEPTH} levels deep after rendering references \\(at config\\.value\\.a\\.a[.a]*…[.a]*\\): flatten the values its references bring in$`))
    expect(rendered.steps.o1!.status).toBe('succeeded')
    expect(failedStep('o2')!.input).toBeUndefined()

    const deepStep = defineStep({ type: 'deep', label: 'Deep', description: 'Answers a deep value.', configSchema: z.object({}), run: async () => ({ output: nest(MAX_VALUE_DEPTH + 1, 1) }) })
    const output = await runWorkflow({ name: 'deep', nodes: [{ id: 'd', type: 'deep' }] }, { registry: new StepRegistry([...builtinSteps, deepStep]), providers, onEvent: (event) => { events.push(event) } })
    expect(output.error?.message).toMatch(/^node "d": its output nests objects and arrays more than 2000 levels deep \(at output\.a\.a.*\): too deep to keep$/)
    expect(failedStep('d')!.output).toBeUndefined()
  })

  it('a reference deeper than the limit is a validation problem naming the node', () => {
    const deep = `{{steps.in.${Array.from({ length: MAX_REFERENCE_DEPTH + 1 }, (_, i) => `f${i}`).join('.')}}}`
    const { problems } = validateWorkflow({ name: 'deep', nodes: [{ id: 'in', type: 'input' }, { id: 'out', type: 'output', config: { value: deep } }], edges: [{ from: 'in', to: 'out' }] }, defaultRegistry)
    expect(problems).toEqual([expect.objectContaining({ node: 'out', message: expect.stringContaining(`deeper than ${MAX_REFERENCE_DEPTH} fields`) })])
  })

  it('retry attempts and node counts have ceilings named in the error', () => {
    const retry = validateWorkflow({ name: 'r', nodes: [{ id: 'a', type: 'input' }, { id: 'r', type: 'retry', config: { target: 'a', max_attempts: 21 } }], edges: [{ from: 'a', to: 'r' }] }, defaultRegistry)
    expect(retry.problems.map(p => p.message)).toContainEqual(expect.stringContaining('config.max_attempts'))
    const many = validateWorkflow({ name: 'n', nodes: Array.from({ length: 2001 }, (_, i) => ({ id: `n${i}`, type: 'output' })), edges: [] }, defaultRegistry)
    expect(many.problems[0]!.message).toContain('nodes')
  })

  it('runs beyond the queue limit are refused with TOO_MANY_RUNS instead of piling up', async () => {
    const handle = openDatabase(':memory:')
    const slow = { name: 's', nodes: [{ id: 'in', type: 'input' }, { id: 'out', type: 'output', config: { value: 'x' } }], edges: [{ from: 'in', to: 'out' }] }
    const service = new RunService({ store: createSqliteStore(handle), registry: defaultRegistry, providers, maxConcurrentRuns: 1, maxQueuedRuns: 2 })
    const started = await Promise.allSettled(Array.from({ length: 6 }, () => service.start({ definition: slow })))
    const refused = started.filter(s => s.status === 'rejected')
    expect(refused.length).toBeGreaterThan(0)
    expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'TOO_MANY_RUNS' })
    expect(String((refused[0] as PromiseRejectedResult).reason.message)).toContain('JUDGEFLOW_MAX_QUEUED_RUNS')
    await service.drain(2_000)
    handle.close()
  })
})
