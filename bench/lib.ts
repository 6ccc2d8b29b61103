/** Helpers for `npm run bench`: each benchmark prints one JSON line {name, value, unit, target}. */
import { fork, spawnSync, type ChildProcess } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export interface BenchResult {
  name: string
  value: number
  unit: string
  /** The goal, as text: "<= 0.05", ">= 500" or "= 0"; anything else (e.g. "reported") is a figure without one. */
  target: string
}

export function report(result: BenchResult): void {
  if (!/^[<>]?=/.test(result.target)) return console.log(JSON.stringify({ ...result, value: Number(result.value.toPrecision(4)) }))
  const bound = Number(result.target.replace(/^[<>]?=\s*/, ''))
  const met = result.target.startsWith('<=') ? result.value <= bound : result.target.startsWith('>=') ? result.value >= bound : result.value === bound
  console.log(JSON.stringify({ ...result, value: Number(result.value.toPrecision(4)), met }))
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

/** An LLM step and a criteria judge, both on OpenAI's wire format and uncached: the dataset-run and queue benches' workflow. */
export const benchGate = (name: string) => ({
  name,
  nodes: [
    { id: 'in', type: 'input', config: { fields: { question: { type: 'string', required: true } } } },
    { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Answer {{input.question}}', cache: false } },
    {
      id: 'judge', type: 'evaluator',
      config: { evaluation_type: 'criteria', model: 'openai:gpt-4o-mini', pass_threshold: 0.7, criteria: [{ name: 'helpful', description: 'Helps', weight: 1 }], cache: false },
    },
  ],
  edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }],
})

export interface FakeLLMProcess {
  child: ChildProcess
  /** The variables that point the app's providers at it. */
  env: Record<string, string>
  /** How many requests it has served since the last reset. */
  count: () => Promise<number>
  reset: () => Promise<void>
}

/** The fake LLM server (tests/support) in a process of its own, answering after `latencyMs`, so its work is not the app's. */
export async function startFakeLLMProcess(latencyMs: number): Promise<FakeLLMProcess> {
  const child = fork(join(import.meta.dirname, 'fake-llm-process.ts'), { execArgv: ['--import', 'tsx'], env: { ...process.env, FAKE_LLM_LATENCY_MS: String(latencyMs) } })
  const { env } = await new Promise<{ env: Record<string, string> }>(resolve => child.once('message', resolve))
  const ask = <T>(type: string) => new Promise<T>((resolve) => {
    child.once('message', resolve)
    child.send({ type })
  })
  return { child, env, count: async () => (await ask<{ count: number }>('count')).count, reset: async () => void await ask('reset') }
}

/**
 * The package as `npm install` lays it out (bin/, the compiled dist/, package.json, no sources) in a
 * temporary folder, its node_modules the checkout's: what `npx judgeflow` runs. dist/ is compiled
 * first when missing, or always with `rebuild` (a benchmark of code that changed since the last build).
 */
export function installedPackage(options: { rebuild: boolean }): { installed: string, bin: string, remove: () => void } {
  const root = resolve(import.meta.dirname, '..')
  if (options.rebuild || !existsSync(join(root, 'dist/cli.js'))) {
    const built = spawnSync(process.execPath, [join(root, 'scripts/build-package.mjs')], { cwd: root, stdio: 'inherit' })
    if (built.status !== 0) throw new Error('bench: compiling the CLI (scripts/build-package.mjs) failed')
  }
  const installed = mkdtempSync(join(tmpdir(), 'judgeflow-bench-package-'))
  for (const part of ['bin', 'dist', 'package.json']) cpSync(join(root, part), join(installed, part), { recursive: true })
  symlinkSync(join(root, 'node_modules'), join(installed, 'node_modules'))
  return { installed, bin: join(installed, 'bin/judgeflow.mjs'), remove: () => rmSync(installed, { recursive: true, force: true }) }
}
