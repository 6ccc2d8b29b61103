import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { builtinSteps, createProviders, defineStep, runWorkflow, StepRegistry } from '../engine'
import { RunService } from '../core'
import { createSqliteStore, openDatabase } from '../db'
import { median, report } from './lib'

const noop = defineStep({ type: 'noop', label: 'No-op', description: 'Does nothing, for benchmarks.', configSchema: z.object({}), run: async () => ({ output: {} }) })
const registry = new StepRegistry([...builtinSteps, noop])
const providers = createProviders({ env: {} })

/** 1,000 nodes; each depends on up to two earlier nodes (a fixed pseudo-random layout). */
export function noopDag(size = 1000) {
  let seed = 42
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
  const nodes = Array.from({ length: size }, (_, i) => ({ id: `n${i}`, type: 'noop' }))
  const edges: Array<{ from: string, to: string }> = []
  for (let i = 1; i < size; i++) {
    const a = Math.floor(random() * i)
    edges.push({ from: `n${a}`, to: `n${i}` })
    const b = Math.floor(random() * i)
    if (b !== a) edges.push({ from: `n${b}`, to: `n${i}` })
  }
  return { name: 'bench', nodes, edges, settings: { concurrency: 16 } }
}

export async function benchExecutor() {
  const dag = noopDag()
  const size = dag.nodes.length
  const times: number[] = []
  for (let i = 0; i < 12; i++) {
    const t0 = performance.now()
    const result = await runWorkflow(dag, { registry, providers })
    if (result.status !== 'succeeded') throw new Error(`bench run ${result.status}`)
    if (i >= 2) times.push(performance.now() - t0)
  }
  report({ name: 'executor overhead per step (1,000-node no-op DAG, in memory)', value: median(times) / size, unit: 'ms/step', target: '<= 0.05' })

  const handle = openDatabase(join(mkdtempSync(join(tmpdir(), 'judgeflow-bench-')), 'bench.db'))
  const service = new RunService({ store: createSqliteStore(handle), registry, providers })
  const persisted: number[] = []
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now()
    const { result } = await service.runToEnd({ definition: dag })
    if (result?.status !== 'succeeded') throw new Error(`bench run ${result?.status}`)
    if (i >= 2) persisted.push(performance.now() - t0)
  }
  handle.close()
  report({ name: 'executor overhead per step (1,000-node no-op DAG, every step and event committed to SQLite)', value: median(persisted) / size, unit: 'ms/step', target: '<= 0.3' })
}
