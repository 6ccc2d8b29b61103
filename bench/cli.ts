/**
 * `judgeflow --help` as a new process, as `npx judgeflow` starts it from an installed package: the
 * package's layout (bin/, the compiled dist/, package.json, no sources) in a temporary folder,
 * whole-process wall time, median of 15 runs after one not counted.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { median, report } from './lib'

const root = resolve(import.meta.dirname, '..')

export async function benchCli(): Promise<void> {
  if (!existsSync(join(root, 'dist/cli.js'))) {
    const built = spawnSync(process.execPath, [join(root, 'scripts/build-package.mjs')], { cwd: root, stdio: 'inherit' })
    if (built.status !== 0) throw new Error('bench: compiling the CLI (scripts/build-package.mjs) failed')
  }
  const installed = mkdtempSync(join(tmpdir(), 'judgeflow-bench-cli-'))
  try {
    for (const part of ['bin', 'dist', 'package.json']) cpSync(join(root, part), join(installed, part), { recursive: true })
    symlinkSync(join(root, 'node_modules'), join(installed, 'node_modules'))
    const times: number[] = []
    for (let i = 0; i < 16; i++) {
      const t0 = performance.now()
      const run = spawnSync(process.execPath, [join(installed, 'bin/judgeflow.mjs'), '--help'], { cwd: installed, stdio: 'ignore' })
      if (run.status !== 0) throw new Error(`bench: judgeflow --help exited with ${run.status}`)
      if (i > 0) times.push((performance.now() - t0) / 1000)
    }
    report({ name: 'cli_help_cold_start', value: median(times), unit: 's', target: '<= 0.4' })
  }
  finally {
    rmSync(installed, { recursive: true, force: true })
  }
}
