/**
 * `judgeflow --help` as a new process, as `npx judgeflow` starts it from an installed package: the
 * package's layout (bin/, the compiled dist/, package.json, no sources) in a temporary folder,
 * whole-process wall time, median of 15 runs after one not counted.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { installedPackage, median, report } from './lib'

export async function benchCli(): Promise<void> {
  const { installed, remove } = installedPackage({ rebuild: false })
  try {
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
    remove()
  }
}
