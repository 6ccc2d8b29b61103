import { loadConfig } from '../core'
import { runJavascript, runPython } from '../engine/sandbox'
import { median, report } from './lib'

/**
 * One run of user code: a `javascript` and a `python` assertion each started in its bubblewrap
 * sandbox and answered, the whole round trip (process start, isolation, answer).
 */
export async function benchSandbox() {
  const { searchPath, maxProcesses } = loadConfig().code
  const limits = { timeoutMs: 10_000, memoryMb: 128, maxProcesses, searchPath, isolation: 'require' as const }
  for (const [language, run, code] of [['javascript', runJavascript, 'output.length > 0'], ['python', runPython, 'len(output) > 0']] as const) {
    const times: number[] = []
    for (let i = 0; i < 23; i++) {
      const t0 = performance.now()
      await run({ code, args: { output: 'an answer', context: { vars: {} } }, mode: 'assertion' }, limits)
      // The first runs find the sandbox and warm the caches.
      if (i >= 3) times.push(performance.now() - t0)
    }
    report({ name: `a ${language} assertion in its sandbox, start to answer`, value: median(times), unit: 'ms', target: '<= 150' })
  }
}
