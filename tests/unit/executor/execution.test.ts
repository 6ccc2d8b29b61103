import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { runWorkflow, type RunEvent } from '../../../engine'
import { FakeLLM } from '../../support/fake-llm'
import { qualityGate, sleepStep, testDeps } from '../../support/workflows'

const finished = (events: RunEvent[]) => events.flatMap(e => ('step' in e ? [`${e.step.node_id}#${e.step.attempt}:${e.step.status}`] : []))

/** Whether the promise has settled by now: a flag the test reads after moving the fake clock. */
function settledFlag(promise: Promise<unknown>) {
  const flag = { settled: false }
  void promise.finally(() => { flag.settled = true })
  return flag
}

describe('executor', () => {
  afterEach(() => { vi.useRealTimers() })

  it('runs the quality gate: fails twice, passes on the third attempt, prompts see the previous feedback', async () => {
    const { options, events } = testDeps()
    const result = await runWorkflow(qualityGate(['one', 'two', 'three'], [false, false, true]), { ...options, input: { question: 'Why?' } })
    expect(result.status).toBe('succeeded')
    expect(result.verdict).toBe('pass')
    expect(result.output).toBe('three')
    expect(result.steps.draft).toMatchObject({ status: 'succeeded', attempts: 3, output: { text: 'three' } })
    expect(result.steps.ko!.status).toBe('skipped')
    const draftInputs = events.flatMap(e => (e.type === 'step.started' && e.node_id === 'draft' ? [(e.input as { prompt: string }).prompt] : []))
    expect(draftInputs).toEqual(['Answer: Why?\n (attempt 1)', 'Answer: Why?\nfeedback 1 (attempt 2)', 'Answer: Why?\nfeedback 2 (attempt 3)'])
    const retrying = events.filter(e => e.type === 'step.retrying')
    expect(retrying.map(e => e.type === 'step.retrying' && [e.target, e.attempt])).toEqual([['draft', 2], ['draft', 3]])
  })

  it('takes the exhausted branch after max_attempts runs of the target', async () => {
    const { options, events } = testDeps()
    const result = await runWorkflow(qualityGate(['a'], [false]), { ...options, input: { question: 'q' } })
    expect(result).toMatchObject({ status: 'succeeded', verdict: 'fail', output: 'feedback 1' })
    expect(result.steps.draft!.attempts).toBe(3)
    expect(result.steps.again).toMatchObject({ output: { attempt: 3, exhausted: true }, branch: 'exhausted' })
    expect(finished(events).filter(s => s.startsWith('ok#'))).toEqual(['ok#1:skipped', 'ok#2:skipped', 'ok#3:skipped'])
  })

  it('skips nodes reachable only through untaken branches, and joins wait for non-skipped inputs', async () => {
    const { options } = testDeps()
    const result = await runWorkflow({
      name: 'branches',
      nodes: [
        { id: 'start', type: 'input' },
        { id: 'c', type: 'condition', config: { left: '{{input.n}}', op: 'gt', right: 5 } },
        { id: 'big', type: 'output', config: { value: 'big' } },
        { id: 'small', type: 'output', config: { value: 'small' } },
        { id: 'after_small', type: 'output', config: { value: 'after' } },
        { id: 'join', type: 'output', config: { verdict: 'pass', value: '{{steps.big.value}}|{{steps.small.value}}' } },
      ],
      edges: [
        { from: 'start', to: 'c' }, { from: 'c', to: 'big', when: 'true' }, { from: 'c', to: 'small', when: 'false' },
        { from: 'small', to: 'after_small' }, { from: 'big', to: 'join' }, { from: 'after_small', to: 'join' },
      ],
    }, { ...options, input: { n: 9 } })
    expect(result.steps.small!.status).toBe('skipped')
    expect(result.steps.after_small!.status).toBe('skipped')
    expect(result.steps.join).toMatchObject({ status: 'succeeded', output: { value: 'big|' } })
  })

  it('runs independent branches concurrently under the limit, in dependency order', async () => {
    const { step, tracker } = sleepStep()
    const { options } = testDeps([step])
    const nodes = [{ id: 'root', type: 'input' }, ...Array.from({ length: 6 }, (_, i) => ({ id: `s${i}`, type: 'sleep', config: { ms: 30 } })), { id: 'end', type: 'sleep', config: { ms: 0 } }]
    const edges = [...Array.from({ length: 6 }, (_, i) => ({ from: 'root', to: `s${i}` })), ...Array.from({ length: 6 }, (_, i) => ({ from: `s${i}`, to: 'end' }))]
    vi.useFakeTimers()
    const running = runWorkflow({ name: 'fan', nodes, edges }, { ...options, concurrency: 3 })
    const run = settledFlag(running)
    // Six 30 ms steps, three at a time: two waves, so the run cannot end before 60 ms.
    await vi.advanceTimersByTimeAsync(59)
    expect(run.settled).toBe(false)
    expect(tracker.order.filter(id => id.startsWith('s'))).toHaveLength(6)
    await vi.runAllTimersAsync()
    const result = await running
    expect(result.status).toBe('succeeded')
    expect(tracker.peak).toBe(3)
    expect(tracker.order.at(-1)).toBe('end')
  })

  it('fails a step that exceeds its timeout and stops the run', async () => {
    const { step } = sleepStep()
    const { options } = testDeps([step])
    const result = await runWorkflow({
      name: 'slow',
      nodes: [{ id: 'slow', type: 'sleep', timeout_ms: 20, config: { ms: 5000 } }, { id: 'next', type: 'output' }],
      edges: [{ from: 'slow', to: 'next' }],
    }, options)
    expect(result.status).toBe('failed')
    expect(result.steps.slow!.error).toMatchObject({ code: 'STEP_TIMEOUT', message: 'node "slow" timed out after 20 ms' })
    expect(result.steps.next!.status).toBe('pending')
  })

  it('cancels the whole run and the running steps through the signal', async () => {
    const { step } = sleepStep()
    const { options, events } = testDeps([step])
    const controller = new AbortController()
    vi.useFakeTimers()
    setTimeout(() => controller.abort(), 30)
    const running = runWorkflow({
      name: 'cancel',
      nodes: [{ id: 'a', type: 'sleep', config: { ms: 5000 } }, { id: 'b', type: 'sleep', config: { ms: 5000 } }, { id: 'c', type: 'output' }],
      edges: [{ from: 'a', to: 'c' }, { from: 'b', to: 'c' }],
    }, { ...options, signal: controller.signal })
    const run = settledFlag(running)
    // Cancelled at 30 ms, the run ends without waiting for its 5 s steps.
    await vi.advanceTimersByTimeAsync(999)
    expect(run.settled).toBe(true)
    const result = await running
    expect(result.status).toBe('cancelled')
    expect(result.steps.a!.status).toBe('cancelled')
    expect(result.steps.b!.status).toBe('cancelled')
    expect(events.at(-1)!.type).toBe('run.finished')
  })

  it('reports a failed step with its error and stops the steps still running', async () => {
    const { step } = sleepStep()
    const { options } = testDeps([step])
    const result = await runWorkflow({
      name: 'fail',
      nodes: [{ id: 'bad', type: 'sleep', config: { ms: 0, fail: true } }, { id: 'good', type: 'sleep', config: { ms: 20 } }, { id: 'after', type: 'output' }],
      edges: [{ from: 'bad', to: 'after' }],
    }, options)
    expect(result.status).toBe('failed')
    expect(result.error!.message).toBe('bad failed on purpose')
    expect(result.steps.good).toMatchObject({ status: 'cancelled', error: { message: 'stopped because the run failed: bad failed on purpose' } })
    expect(result.steps.after!.status).toBe('pending')
  })

  it('emits started/succeeded/skipped/retrying events with attempts and durations', async () => {
    const { options, events } = testDeps()
    await runWorkflow(qualityGate(['x', 'y'], [false, true]), { ...options, input: { question: 'q' } })
    const succeeded = events.filter(e => e.type === 'step.succeeded')
    expect(succeeded.length).toBeGreaterThan(0)
    for (const e of succeeded) if ('step' in e) expect(e.step.duration_ms).toBeGreaterThanOrEqual(0)
    expect(events[0]!.type).toBe('run.started')
    expect(events.some(e => e.type === 'step.skipped')).toBe(true)
    expect(events.find(e => e.type === 'step.retrying')).toMatchObject({ node_id: 'again', target: 'draft', attempt: 2 })
  })

  it('commits a step before any dependent starts', async () => {
    const { options } = testDeps()
    const log: string[] = []
    await runWorkflow(qualityGate(['x'], [true]), {
      ...options,
      input: { question: 'q' },
      onEvent: async (event) => {
        if (event.type === 'step.started') log.push(`start ${event.node_id}`)
        if (event.type === 'step.succeeded') {
          await new Promise(resolve => setTimeout(resolve, 5))
          log.push(`commit ${event.step.node_id}`)
        }
      },
    })
    expect(log).toEqual(['start in', 'commit in', 'start draft', 'commit draft', 'start judge', 'commit judge', 'start check', 'commit check', 'start ok', 'commit ok'])
  })

  it('refuses invalid input before the run, naming the variable', async () => {
    const { options } = testDeps()
    await expect(runWorkflow(qualityGate(['x'], [true]), { ...options, input: {} })).rejects.toThrow('input "question" is required (node "in")')
  })

  it('reports a missing API key before any call, naming the variable and the node', async () => {
    const { options } = testDeps()
    const workflow = { name: 'k', nodes: [{ id: 'draft', type: 'llm', config: { model: 'anthropic:claude-3-5-haiku-latest', prompt: 'hi' } }], edges: [] }
    await expect(runWorkflow(workflow, options)).rejects.toThrow('ANTHROPIC_API_KEY is not set: node "draft" uses anthropic:claude-3-5-haiku-latest')
  })

  it('replays committed steps from a journal instead of running them again', async () => {
    const { step, tracker } = sleepStep()
    const { options } = testDeps([step])
    const workflow = { name: 'j', nodes: [{ id: 'a', type: 'sleep', config: { value: 'fresh-a' } }, { id: 'b', type: 'sleep', config: { value: '{{steps.a.value}}+b' } }], edges: [{ from: 'a', to: 'b' }] }
    const result = await runWorkflow(workflow, {
      ...options,
      journal: (id, attempt) => (id === 'a' && attempt === 1 ? { node_id: 'a', attempt: 1, status: 'succeeded', input: { value: 'fresh-a' }, output: { value: 'committed-a' } } : undefined),
    })
    expect(tracker.order).toEqual(['b'])
    expect(result.steps.b!.output).toEqual({ value: 'committed-a+b' })
  })

  it('stops replaying at the first record whose input differs from the step\'s rendered input', async () => {
    const { step, tracker } = sleepStep()
    const { options } = testDeps([step])
    const workflow = { name: 'j', nodes: [{ id: 'a', type: 'sleep', config: { value: 'now-a' } }, { id: 'b', type: 'sleep', config: { value: '{{steps.a.value}}+b' } }], edges: [{ from: 'a', to: 'b' }] }
    const result = await runWorkflow(workflow, {
      ...options,
      journal: id => ({ node_id: id, attempt: 1, status: 'succeeded', input: { value: 'then-a' }, output: { value: 'old' } }),
    })
    expect(tracker.order).toEqual(['a', 'b'])
    expect(result.steps.b!.output).toEqual({ value: 'now-a+b' })
  })
})

describe('timeouts and cancellation reach the provider call', () => {
  const fake = new FakeLLM()
  beforeAll(async () => { await fake.start() })
  afterAll(async () => { await fake.stop() })
  const slowLlm = { name: 'slow', nodes: [{ id: 'ask', type: 'llm', timeout_ms: 1000, config: { model: 'openai:gpt-4o-mini', prompt: 'wait' } }] }

  it('a step timeout aborts the HTTP request', async () => {
    fake.reset()
    fake.onRequest(() => ({ text: 'late', delayMs: 5000 }))
    const { options } = testDeps([], fake.env())
    const result = await runWorkflow(slowLlm, options)
    expect(result.steps.ask!.error).toMatchObject({ code: 'STEP_TIMEOUT' })
    await new Promise(resolve => setTimeout(resolve, 50))
    expect(fake.requests.map(r => r.aborted)).toEqual([true])
  })

  it('cancelling the run aborts the HTTP request', async () => {
    fake.reset()
    fake.onRequest(() => ({ text: 'late', delayMs: 5000 }))
    const { options } = testDeps([], fake.env())
    const controller = new AbortController()
    const running = runWorkflow({ ...slowLlm, nodes: [{ ...slowLlm.nodes[0]!, timeout_ms: 10_000 }] }, { ...options, signal: controller.signal })
    setTimeout(() => controller.abort(), 1200)
    expect((await running).status).toBe('cancelled')
    await new Promise(resolve => setTimeout(resolve, 50))
    expect(fake.requests.map(r => r.aborted)).toEqual([true])
  })
})
