import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { RunService, type Store } from '../../../core'
import type { RunEventRow, RunRow } from '../../../db'
import { builtinSteps, createProviders, defineStep, StepRegistry, type JudgeflowError } from '../../../engine'
import { storeFactories, stopStores } from '../../support/stores'

/** A step that waits until the run is cancelled. */
const holdStep = defineStep({
  type: 'hold', label: 'Hold', description: 'Waits until the run is cancelled.', configSchema: z.object({}),
  run: ({ signal }) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
})
/** Steps that say which steps of the run were committed when their work began. */
const committedAtWork: string[][] = []
let probedRun: Promise<string> = Promise.resolve('')
let probedStore: Store | undefined
const probeStep = defineStep({
  type: 'probe', label: 'Probe', description: 'Notes the committed steps of its run when its work begins.', configSchema: z.object({}),
  run: async () => {
    const steps = await probedStore!.runs.steps(await probedRun)
    committedAtWork.push(steps.filter(s => s.status === 'succeeded').map(s => s.nodeId))
    return { output: { ok: true } }
  },
})
const registry = new StepRegistry([...builtinSteps, holdStep, probeStep])
const held = { name: 'held', nodes: [{ id: 'in', type: 'input' }, { id: 'wait', type: 'hold' }], edges: [{ from: 'in', to: 'wait' }] }

afterAll(stopStores)

describe.each(storeFactories)('run service ($name)', ({ open }) => {
  let store: Store | undefined
  const services: RunService[] = []
  afterEach(async () => {
    vi.restoreAllMocks()
    for (const service of services.splice(0)) await service.drain(0)
    await store?.close()
  })

  async function setup(maxConcurrentRuns = 1) {
    const opened = store = await open()
    const service = new RunService({ store: opened, registry, providers: createProviders({ env: {} }), maxConcurrentRuns })
    services.push(service)
    const workflow = await opened.workflows.create(held)
    const start = () => service.start({ definition: held, workflowId: workflow.id, workflowVersion: 1 })
    const finished = (runId: string) => new Promise<RunEventRow>((resolve) => {
      service.subscribe(runId, (row) => { if (row.type === 'run.finished') resolve(row) })
    })
    return { store: opened, service, workflow, start, finished }
  }

  it('commits a step\'s output before the next step\'s work begins, though it writes a run\'s events together', async () => {
    const { store, service } = await setup(1)
    probedStore = store
    committedAtWork.length = 0
    const chain = {
      name: 'chain',
      nodes: [{ id: 'in', type: 'input' }, { id: 'first', type: 'probe' }, { id: 'second', type: 'probe' }, { id: 'third', type: 'probe' }],
      edges: [{ from: 'in', to: 'first' }, { from: 'first', to: 'second' }, { from: 'second', to: 'third' }],
    }
    let started!: (id: string) => void
    probedRun = new Promise((resolve) => { started = resolve })
    const run = await service.start({ definition: chain })
    started(run.id)
    const ended = await service.whenEnded(run.id)
    expect(ended.status).toBe('succeeded')
    expect(committedAtWork).toEqual([['in'], ['in', 'first'], ['in', 'first', 'second']])
  })

  it('answers every one of many cancels of its runs, at once or a few turns apart, with cancelling or that the run is cancelled: never another process', async () => {
    const { store, service, start } = await setup(4)
    // Four runs executing (held in their step until cancelled) and eight waiting for a slot.
    const runs: RunRow[] = []
    for (let i = 0; i < 12; i++) runs.push(await start())
    await vi.waitFor(async () => expect((await store.runs.statuses(runs.map(run => run.id))).get(runs[3]!.id)).toBe('running'))
    const turns = (n: number) => new Promise<void>(resolve => (function next(left: number) {
      if (!left) resolve()
      else setImmediate(() => next(left - 1))
    })(n))
    const answer = (runId: string) => service.cancelOrInterrupt(runId).then(outcome => outcome as string, (error: JudgeflowError) => error.message)
    const answers = await Promise.all(runs.flatMap(run => Array.from({ length: 10 }, (_, i) => turns(i % 5).then(() => answer(run.id)))))
    const cancelledAlready = new Set(runs.map(run => `run "${run.id}" is cancelled and cannot be cancelled`))
    expect(answers.filter(a => a !== 'cancelling' && !cancelledAlready.has(a))).toEqual([])
    for (const run of runs) expect((await service.whenEnded(run.id)).status).toBe('cancelled')
    expect(await Promise.all(runs.map(run => answer(run.id)))).toEqual([...cancelledAlready])
  })

  describe('deleting a workflow with runs going on', () => {
    it('cancels its running and queued runs, tells their subscribers, then deletes it with every run', async () => {
      const { store, service, workflow, start, finished } = await setup(1)
      const running = await start()
      const queued = await start()
      await vi.waitFor(async () => expect((await store.runs.eventsAfter(running.id)).some(e => e.type === 'step.started' && e.nodeId === 'wait')).toBe(true))
      const ends = [finished(running.id), finished(queued.id)]
      const outcome = await service.deleteWorkflowWith(workflow.id, () => store.workflows.delete(workflow.id))
      expect(outcome).toEqual({ removed: true })
      expect((await Promise.all(ends)).map(row => (row.data.result as { status: string }).status)).toEqual(['cancelled', 'cancelled'])
      expect(await store.workflows.get(workflow.id)).toBeNull()
      expect([await store.runs.get(running.id), await store.runs.get(queued.id)]).toEqual([null, null])
      expect(service.isActive(running.id) || service.isActive(queued.id)).toBe(false)
    })

    it('lets a start under way finish starting, then cancels it too; a start during the deletion is refused', async () => {
      const { store, service, workflow, start, finished } = await setup(4)
      const starting = start()
      const deletion = service.deleteWorkflowWith(workflow.id, () => store.workflows.delete(workflow.id))
      await expect(start()).rejects.toMatchObject({ code: 'CONFLICT', message: `workflow "${workflow.id}" is being deleted: no new run of it can start.` })
      const run = await starting
      const end = finished(run.id)
      expect(await deletion).toEqual({ removed: true })
      expect(((await end).data.result as { status: string }).status).toBe('cancelled')
      expect(await store.runs.get(run.id)).toBeNull()
    })

    it('keeps the workflow and names the runs that did not stop in time', async () => {
      const { store, service, workflow, start } = await setup(1)
      const run = await start()
      await vi.waitFor(async () => expect((await store.runs.eventsAfter(run.id)).some(e => e.type === 'step.started' && e.nodeId === 'wait')).toBe(true))
      // A run whose execution never ends, whatever the signal says: its last write never returns.
      vi.spyOn(store.runs, 'write').mockImplementation(() => new Promise(() => {}))
      await vi.waitFor(() => expect(service.isActive(run.id)).toBe(true))
      const remove = vi.fn(() => store.workflows.delete(workflow.id))
      expect(await service.deleteWorkflowWith(workflow.id, remove, 20)).toEqual({ stillRunning: [run.id] })
      expect(remove).not.toHaveBeenCalled()
      expect(await store.workflows.get(workflow.id)).not.toBeNull()
      // The deletion is over: runs of the workflow can start again.
      await expect(start()).resolves.toMatchObject({ workflowId: workflow.id })
    })
  })
})
