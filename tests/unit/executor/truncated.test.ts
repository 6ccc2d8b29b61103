import { describe, expect, it } from 'vitest'
import { boundEvent, boundValue, EVENT_VALUE_LIMIT, isTruncated, jsonPreview, jsonSize, type RunEvent } from '../../../engine'
import { chooseWhole, type StepSizes } from '../../../db/bounded-view'

describe('bounded values', () => {
  it('previews a value as the start of its JSON, without building the rest', () => {
    const values = [null, 'abc', 12.5, true, [], {}, [1, 'two', { three: [3, null] }], { a: { b: 'c"d' }, e: [false] }, { gone: undefined, kept: 1 }]
    for (const value of values) {
      const text = JSON.stringify(value)
      for (const max of [1, 5, 12, 1_000]) expect(jsonPreview(value, max)).toBe(text.slice(0, max))
    }
    const huge = { items: Array.from({ length: 20_000 }, (_, i) => ({ text: `item ${i}`, long: 'x'.repeat(100) })) }
    expect(jsonPreview(huge, 300)).toBe(JSON.stringify(huge).slice(0, 300))
  })

  it('keeps a value within the bound and marks one past it with its size and start', () => {
    expect(boundValue({ a: 'small' }, 100)).toEqual({ a: 'small' })
    const big = { text: 'y'.repeat(1_000) }
    const marker = boundValue(big, 100)
    expect(isTruncated(marker)).toBe(true)
    expect(marker).toEqual({ truncated: true, size: JSON.stringify(big).length, preview: JSON.stringify(big).slice(0, 500) })
    expect(isTruncated({ truncated: true })).toBe(false)
  })

  it('bounds every input and output an event carries, and leaves the rest as it was', () => {
    const large = 'z'.repeat(EVENT_VALUE_LIMIT + 1)
    const started = boundEvent({ type: 'step.started', at: 1, node_id: 'a', attempt: 1, input: { large } }) as Extract<RunEvent, { type: 'step.started' }>
    expect(isTruncated(started.input)).toBe(true)
    const done = boundEvent({ type: 'step.succeeded', at: 2, step: { node_id: 'a', attempt: 1, status: 'succeeded', input: 'small', output: [large] } }) as Extract<RunEvent, { step: unknown }>
    expect(done.step.input).toBe('small')
    expect(done.step).toMatchObject({ node_id: 'a', attempt: 1, status: 'succeeded', output: { truncated: true, size: jsonSize([large]) } })
    const finished = boundEvent({
      type: 'run.finished', at: 3,
      result: { status: 'succeeded', verdict: 'pass', output: large, error: null, duration_ms: 1, steps: { a: { status: 'succeeded', attempts: 1, output: large, error: null } } },
    }) as Extract<RunEvent, { type: 'run.finished' }>
    expect(finished.result).toMatchObject({ status: 'succeeded', verdict: 'pass', output: { truncated: true }, steps: { a: { status: 'succeeded', output: { truncated: true } } } })
    const retrying: RunEvent = { type: 'step.retrying', at: 4, node_id: 'r', target: 'a', attempt: 2, reason: 'low' }
    expect(boundEvent(retrying)).toEqual(retrying)
  })

  it('carries values whole within the per-value and total limits, the run\'s own and the latest attempts first', () => {
    const step = (id: number, attempt: number, input: number | null, output: number | null): StepSizes => ({
      id, attempt, input: { size: input, head: null }, output: { size: output, head: null },
    } as StepSizes)
    const chosen = chooseWhole(
      { input: { size: 10, head: null }, output: { size: 200, head: null } },
      [step(1, 1, 40, 40), step(2, 2, 40, 40), step(3, 2, 5, 500)],
      { value: 100, total: 100 },
    )
    // The run's output is over the per-value limit; its input (10) fits. Attempt 2 comes before attempt 1.
    expect(chosen.run).toEqual({ input: true, output: false })
    expect(chosen.input).toEqual([2, 3])
    expect(chosen.output).toEqual([2])
  })
})
