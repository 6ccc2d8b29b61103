import { describe, expect, it } from 'vitest'
import { createProviders, defaultRegistry, MAX_REFERENCE_DEPTH, runWorkflow, validateWorkflow } from '../../../engine'
import { openDatabase, RunService } from '../../../db'

const providers = createProviders({ env: {} })

describe('limits, each with a clear error', () => {
  it('a step whose rendered text is over the limit fails, naming the node, the field and both sizes', async () => {
    const previous = process.env.JUDGEFLOW_MAX_STEP_TEXT
    process.env.JUDGEFLOW_MAX_STEP_TEXT = '100'
    try {
      const result = await runWorkflow({
        name: 'long',
        nodes: [{ id: 'in', type: 'input' }, { id: 'out', type: 'output', config: { value: { text: '{{input.text}}' } } }],
        edges: [{ from: 'in', to: 'out' }],
      }, { registry: defaultRegistry, providers, input: { text: 'x'.repeat(101) } })
      expect(result.status).toBe('failed')
      expect(result.error?.message).toBe('node "out": config.value.text is 101 characters after rendering references, over the limit of 100 (JUDGEFLOW_MAX_STEP_TEXT)')
    }
    finally {
      if (previous === undefined) delete process.env.JUDGEFLOW_MAX_STEP_TEXT
      else process.env.JUDGEFLOW_MAX_STEP_TEXT = previous
    }
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
    const service = new RunService({ db: handle.db, registry: defaultRegistry, providers, maxConcurrentRuns: 1, maxQueuedRuns: 2 })
    const started = await Promise.allSettled(Array.from({ length: 6 }, () => service.start({ definition: slow })))
    const refused = started.filter(s => s.status === 'rejected')
    expect(refused.length).toBeGreaterThan(0)
    expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'TOO_MANY_RUNS' })
    expect(String((refused[0] as PromiseRejectedResult).reason.message)).toContain('JUDGEFLOW_MAX_QUEUED_RUNS')
    await service.drain(2_000)
    handle.close()
  })
})
