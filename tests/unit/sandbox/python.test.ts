import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../../core'
import { runPython } from '../../../engine/sandbox'

const { searchPath, maxProcesses } = loadConfig().code
// Runs that end by themselves get room to start on a busy machine; the time-limit tests set their own.
const limits = { timeoutMs: 2000, memoryMb: 64, maxProcesses, searchPath, isolation: 'require' as const }
const assertion = (code: string, output: unknown = 'a yes', context: unknown = { vars: {} }) =>
  runPython({ code, args: { output, context }, mode: 'assertion' }, limits)
/** A SCRIPT_FAILED error whose message contains `message` (or matches it). */
const failure = (message: string | RegExp, reason: string) => expect.objectContaining({
  code: 'SCRIPT_FAILED', category: 'user', details: { language: 'Python', reason },
  message: typeof message === 'string' ? expect.stringContaining(message) : expect.stringMatching(message),
})

describe('runPython: promptfoo\'s python assertion, in a python3 child process', () => {
  const secret = 'JUDGEFLOW_SANDBOX_TEST_SECRET'
  afterEach(() => { Reflect.deleteProperty(process.env, secret) })

  it('returns a one-line expression and runs a multi-line body that returns, with output and context', async () => {
    expect(await assertion('"yes" in output')).toBe(true)
    expect(await assertion('output + "\\ud800"', 'é ✓')).toBe('é ✓\ud800')
    expect(await assertion('print("debugging")\nwords = output.split()\nreturn {"pass": len(words) == context["vars"]["n"], "score": 0.5, "reason": "counted"}', 'a yes', { vars: { n: 2 } }))
      .toEqual({ pass: true, score: 0.5, reason: 'counted' })
  })

  it('gives None as null: a multi-line value that does not return, such as a one-liner YAML ends with a newline', async () => {
    expect(await assertion('"yes" in output\n')).toBeNull()
  })

  it('says what the code raised, with its line, and refuses a result JSON cannot hold', async () => {
    await expect(assertion('n = 1\nreturn n / 0')).rejects.toThrow(failure('The Python code threw an error: ZeroDivisionError: division by zero (line 2 of the code)', 'threw'))
    await expect(assertion('n = 1\nreturn n ==')).rejects.toThrow(failure('threw an error: SyntaxError: invalid syntax (line 2 of the code)', 'threw'))
    await expect(assertion('{1, 2}')).rejects.toThrow(failure('returned something JSON cannot hold (Object of type set is not JSON serializable)', 'not-json'))
    await expect(assertion('float("nan")')).rejects.toThrow(failure('returned something JSON cannot hold', 'not-json'))
  })

  it('runs with PATH as its only environment variable, in an empty private /tmp', async () => {
    process.env[secret] = 'hunter2'
    const seen = await assertion('import os\nreturn {"env": sorted(os.environ), "files": os.listdir("."), "cwd": os.getcwd()}') as { env: string[], files: string[], cwd: string }
    expect(seen.env).not.toContain(secret)
    expect(seen.files).toEqual([])
    expect(seen.cwd).toBe('/tmp')
  })

  it('kills an endless loop at the time limit and stops code that takes more memory than the limit', async () => {
    await expect(runPython({ code: 'while True:\n    pass', args: { output: '' }, mode: 'assertion' }, { ...limits, timeoutMs: 500 }))
      .rejects.toThrow(failure(/^The Python code was stopped after 500 ms, the time limit \(JUDGEFLOW_CODE_TIMEOUT_MS\)/, 'timeout'))
    await expect(assertion('kept = []\nwhile True:\n    kept.append(" " * 10**6)'))
      .rejects.toThrow(failure(/^The Python code was stopped: it used more than 64 MB of memory, the limit \(JUDGEFLOW_CODE_MEMORY_MB\)\.$/, 'memory'))
  })

  it('stops code that writes more than its memory limit to the answer\'s channel', async () => {
    const code = 'import os\nwhile True:\n    os.write(1, b"x" * 65536)'
    await expect(runPython({ code, args: { output: '' }, mode: 'assertion' }, { ...limits, timeoutMs: 20_000 }))
      .rejects.toThrow(failure('The Python code returned more than 64 MB of JSON, its memory limit (JUDGEFLOW_CODE_MEMORY_MB); return less.', 'memory'))
  })

  it('stops the code when its signal aborts', async () => {
    const controller = new AbortController()
    const run = runPython({ code: 'while True:\n    pass', args: { output: '' }, mode: 'assertion' }, { ...limits, timeoutMs: 20_000 }, controller.signal)
    setTimeout(() => controller.abort(), 300)
    await expect(run).rejects.toThrow(expect.objectContaining({ code: 'CANCELLED' }))
  })

  it('refuses to run without a python3 on PATH, saying so', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'judgeflow-no-python-'))
    try {
      await expect(runPython({ code: 'True', args: { output: '' }, mode: 'assertion' }, { ...limits, searchPath: empty }))
        .rejects.toThrow(failure('python3 was not found on PATH, and python assertions need it', 'no-python'))
    }
    finally {
      rmSync(empty, { recursive: true })
    }
  })
})
