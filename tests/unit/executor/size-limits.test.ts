import { describe, expect, it } from 'vitest'
import { createProviders, defaultRegistry, jsonSize, runWorkflow, type RunEvent, type StorageLimits } from '../../../engine'

const providers = createProviders({ env: {} })

/** An output step repeating one input reference `times` times. */
function amplifier(times: number) {
  return {
    name: 'amplify',
    nodes: [{ id: 'in', type: 'input' }, { id: 'out', type: 'output', config: { value: Array.from({ length: times }, () => '{{input.x}}') } }],
    edges: [{ from: 'in', to: 'out' }],
  }
}

async function run(definition: unknown, input: unknown, limits?: StorageLimits) {
  const events: RunEvent[] = []
  const result = await runWorkflow(definition, { registry: defaultRegistry, providers, input, limits, onEvent: (event) => { events.push(event) } })
  return { result, events }
}

describe('storage limits', () => {
  it('measures values as JSON without building the JSON, and stops early past a bound', () => {
    for (const value of [null, 'abc', 12.5, true, [], {}, [1, 'two', { three: [3, null] }], { a: { b: { c: 'd' } }, e: [false] }, { gone: undefined, kept: [undefined] }]) {
      expect(jsonSize(value)).toBe(JSON.stringify(value).length)
    }
    const big = { items: Array.from({ length: 100_000 }, (_, i) => ({ text: `item ${i}` })) }
    const bounded = jsonSize(big, 1_000)
    expect(bounded).toBeGreaterThan(1_000)
    expect(bounded).toBeLessThan(jsonSize(big) / 10)
  })

  it('stops an output that repeats a large input 150 times while rendering, storing nothing of it', async () => {
    const x = 'a'.repeat(900_000)
    const { result, events } = await run(amplifier(150), { x })
    expect(result.status).toBe('failed')
    expect(result.error).toMatchObject({ code: 'TOO_LARGE' })
    expect(result.error!.message).toMatch(/node "out": its input passes 4000000 characters at config\.value\[4\] .*JUDGEFLOW_MAX_STEP_RECORD/)
    const failed = events.find(e => e.type === 'step.failed') as Extract<RunEvent, { step: unknown }>
    expect(failed.step.input).toBeUndefined()
    // The events hold the input step's record (the 900,000-character input) and nothing of "out".
    expect(JSON.stringify(events).length).toBeLessThan(2_000_000)
  })

  it('renders the same workflow within the limits when the input is small', async () => {
    const { result } = await run(amplifier(150), { x: 'hello' })
    expect(result.status).toBe('succeeded')
    expect(JSON.stringify(result.output)).toContain(JSON.stringify(Array.from({ length: 150 }, () => 'hello')))
  })

  it('fails a step whose output is over the record limit, without storing the output', async () => {
    const limits = { stepText: 1_000_000, stepRecord: 5_000, run: 1_000_000 }
    // An input step's output is the run input: a 6,000-character input passes a 5,000 record limit.
    const { result, events } = await run({ name: 'o', nodes: [{ id: 'in', type: 'input' }], edges: [] }, { x: 'b'.repeat(6_000) }, limits)
    expect(result.status).toBe('failed')
    expect(result.error!.message).toBe('node "in": its output is over 5000 characters (JUDGEFLOW_MAX_STEP_RECORD); it was not stored')
    const failed = events.find(e => e.type === 'step.failed') as Extract<RunEvent, { step: unknown }>
    expect(failed.step.output).toBeUndefined()
  })

  it('fails the step that would pass the run\'s total, naming the limit', async () => {
    const limits = { stepText: 1_000_000, stepRecord: 100_000, run: 200_000 }
    const chain = {
      name: 'chain',
      nodes: [{ id: 'in', type: 'input' }, ...[1, 2, 3, 4].map(i => ({ id: `s${i}`, type: 'output', config: { value: '{{input.x}}' } }))],
      edges: [{ from: 'in', to: 's1' }, { from: 's1', to: 's2' }, { from: 's2', to: 's3' }, { from: 's3', to: 's4' }],
    }
    const { result } = await run(chain, { x: 'c'.repeat(30_000) }, limits)
    expect(result.status).toBe('failed')
    expect(result.error!.message).toContain('JUDGEFLOW_MAX_RUN_STORAGE')
    expect(result.steps.s1!.status).toBe('succeeded')
  })

  it('counts the copies in events and the run\'s output: a run whose output would pass the total fails, keeping the output\'s size and start', async () => {
    const limits = { stepText: 1_000_000, stepRecord: 100_000, run: 200_000 }
    const echo = { name: 'echo', nodes: [{ id: 'in', type: 'input' }, { id: 'out', type: 'output', config: { value: '{{input.x}}' } }], edges: [{ from: 'in', to: 'out' }] }
    const { result } = await run(echo, { x: 'c'.repeat(40_000) }, limits)
    expect(result.steps.out!.status).toBe('succeeded')
    expect(result.status).toBe('failed')
    expect(result.output).toBeNull()
    expect(result.error).toMatchObject({ code: 'TOO_LARGE', details: { size: 40_002, preview: `"${'c'.repeat(499)}` } })
    expect(result.error!.message).toContain('JUDGEFLOW_MAX_RUN_STORAGE')
    // The same run fits when the total leaves room for the copies.
    expect((await run(echo, { x: 'c'.repeat(40_000) }, { ...limits, run: 400_000 })).result.status).toBe('succeeded')
  })

  it('keeps the size and start of an output refused for its size', async () => {
    const limits = { stepText: 1_000_000, stepRecord: 5_000, run: 1_000_000 }
    const { result } = await run({ name: 'o', nodes: [{ id: 'in', type: 'input' }], edges: [] }, { x: 'b'.repeat(6_000) }, limits)
    expect(result.steps.in!.error).toMatchObject({ code: 'TOO_LARGE', details: { size: 6_008, preview: `{"x":"${'b'.repeat(494)}` } })
  })
})
