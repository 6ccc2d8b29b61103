import { afterEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../../core'
import { runJavascript } from '../../../engine/sandbox'
import { runChild } from '../../../engine/sandbox/child'
import { javascriptChild, javascriptIsolation } from '../../../engine/sandbox/javascript'
import { installFolder } from '../../../engine/sandbox/isolation'

// Runs that end by themselves get room to start on a busy machine; the time-limit tests set their own.
const { searchPath, maxProcesses } = loadConfig().code
const limits = { timeoutMs: 2000, memoryMb: 64, maxProcesses, searchPath, isolation: 'require' as const }
const assertion = (code: string, output: unknown = 'a yes', context: unknown = { vars: {} }) =>
  runJavascript({ code, args: { output, context }, mode: 'assertion' }, limits)
/** The sandbox runJavascript gives its child. */
async function sandboxOf() {
  const probe = await javascriptIsolation(searchPath)
  if (!probe.ok) throw new Error(probe.reason)
  return { isolator: probe.isolator, binds: installFolder(process.execPath) }
}
/** A SCRIPT_FAILED error whose message contains `message` (or matches it). */
const failure = (message: string | RegExp, reason: string) => expect.objectContaining({
  code: 'SCRIPT_FAILED', category: 'user', details: { language: 'JavaScript', reason },
  message: typeof message === 'string' ? expect.stringContaining(message) : expect.stringMatching(message),
})

describe('runJavascript: promptfoo\'s javascript assertion and transform, in a child process', () => {
  it('runs a one-line expression and a multi-line body with output and context', async () => {
    expect(await assertion('output.includes("yes")')).toBe(true)
    expect(await assertion('const n = output.length; n * 2')).toBe(10)
    expect(await assertion('const words = output.split(" ")\nreturn { pass: words.length === context.vars.n, score: 0.5, reason: "counted" }\n', 'a yes', { vars: { n: 2 } }))
      .toEqual({ pass: true, score: 0.5, reason: 'counted' })
  })

  it('awaits a returned promise, a thenable, and an async body', async () => {
    expect(await assertion('Promise.resolve(context.vars.x * 2)', '', { vars: { x: 21 } })).toBe(42)
    expect(await assertion('({ then(resolve) { resolve("later") } })')).toBe('later')
    expect(await assertion('const count = async () => { await null; return output.length }\nreturn count()', 'abc')).toBe(3)
  })

  it('gives a transform its input under the name it is given, and a result of any JSON shape', async () => {
    expect(await runJavascript({ code: 'output.toUpperCase()', args: { output: 'abc', context: {} }, mode: 'transform' }, limits)).toBe('ABC')
    expect(await runJavascript({ code: '({ ...vars, n: vars.n + 1 })', args: { vars: { n: 1 }, context: {} }, mode: 'transform' }, limits)).toEqual({ n: 2 })
    expect(await runJavascript({ code: 'const x = output\n', args: { output: 'a', context: {} }, mode: 'transform' }, limits)).toBeUndefined()
    expect(await assertion('null')).toBeNull()
    expect(await assertion('NaN')).toBeNaN()
  })

  it('says what the code threw, and refuses a result JSON cannot hold', async () => {
    await expect(assertion('JSON.parse(output)', 'not json')).rejects.toThrow(failure(/^The JavaScript code threw an error: SyntaxError: .*not valid JSON/, 'threw'))
    await expect(assertion('Promise.reject(new RangeError("too far"))')).rejects.toThrow(failure('threw an error: RangeError: too far', 'threw'))
    await expect(assertion('output ===')).rejects.toThrow(failure('threw an error: SyntaxError', 'threw'))
    await expect(assertion('({ score: 1, check: () => true })')).rejects.toThrow(failure('returned something JSON cannot hold (a function at key "check")', 'not-json'))
    await expect(assertion('10n')).rejects.toThrow(failure('(a bigint)', 'not-json'))
    await expect(assertion('const a = {}; a.self = a; a')).rejects.toThrow(failure('returned something JSON cannot hold (TypeError: Converting circular structure', 'not-json'))
  })

  it('refuses a result no JSON from a user may be: a __proto__ key, a NUL character, nesting past the limit', async () => {
    await expect(assertion('({ score: 1, nested: JSON.parse(\'{"__proto__": {"polluted": true}}\') })'))
      .rejects.toThrow(failure('The JavaScript code returned a value that is refused: "__proto__" is not allowed as a key (at nested).', 'refused'))
    await expect(assertion('"a\\u0000b"')).rejects.toThrow(failure('is refused: text may not hold the NUL character (\\u0000) (at the top level).', 'refused'))
    await expect(assertion('let deep = []\nfor (let i = 0; i < 2000; i++) deep = [deep]\nreturn { deep }'))
      .rejects.toThrow(failure('returned a value that nests objects and arrays more than 2000 levels deep (at deep', 'refused'))
  })

  it('gives the code no process, require or way out of its context', async () => {
    expect(await assertion('[typeof process, typeof require, typeof globalThis.process, typeof module, typeof setTimeout]'))
      .toEqual(['undefined', 'undefined', 'undefined', 'undefined', 'undefined'])
    await expect(assertion('this.constructor.constructor("return process")()')).rejects.toThrow(failure('EvalError: Code generation from strings disallowed', 'threw'))
    await expect(assertion('import("node:fs")')).rejects.toThrow(failure('threw an error', 'threw'))
    // The functions that settle a promise are the context's own, whose Function compiles nothing.
    await expect(assertion('({ then(resolve) { resolve(resolve.constructor("return process")()) } })')).rejects.toThrow(failure('EvalError', 'threw'))
  })
})

describe('runJavascript\'s limits', () => {
  const secret = 'JUDGEFLOW_SANDBOX_TEST_SECRET'
  afterEach(() => { Reflect.deleteProperty(process.env, secret) })

  it('kills an endless loop, synchronous or asynchronous, at the time limit', async () => {
    const timed = { ...limits, timeoutMs: 400 }
    await expect(runJavascript({ code: 'let i = 0\nwhile (true) i++', args: { output: '' }, mode: 'assertion' }, timed))
      .rejects.toThrow(failure(/^The JavaScript code was stopped after 400 ms, the time limit \(JUDGEFLOW_CODE_TIMEOUT_MS\)/, 'timeout'))
    await expect(runJavascript({ code: '(async () => { while (true) await null })()', args: { output: '' }, mode: 'assertion' }, timed))
      .rejects.toThrow(failure('stopped after 400 ms', 'timeout'))
  })

  it('stops code that takes more memory than the limit, on the heap or in buffers', async () => {
    const message = /^The JavaScript code was stopped: it used more than 64 MB of memory, the limit \(JUDGEFLOW_CODE_MEMORY_MB\)\.$/
    await expect(assertion('const kept = []\nwhile (true) kept.push(new Array(100000).fill(1.5))')).rejects.toThrow(failure(message, 'memory'))
    await expect(assertion('const kept = []\nwhile (true) kept.push(new Uint8Array(10000000).fill(1))')).rejects.toThrow(failure(message, 'memory'))
  })

  it('stops the code when its signal aborts', async () => {
    const controller = new AbortController()
    const run = runJavascript({ code: 'let i = 0\nwhile (true) i++', args: { output: '' }, mode: 'assertion' }, { ...limits, timeoutMs: 20_000 }, controller.signal)
    setTimeout(() => controller.abort(), 200)
    await expect(run).rejects.toThrow(expect.objectContaining({ code: 'CANCELLED' }))
    await expect(runJavascript({ code: 'true', args: {}, mode: 'assertion' }, limits, controller.signal)).rejects.toThrow(expect.objectContaining({ code: 'CANCELLED' }))
    // Aborted after the call, while its folder is being made.
    const early = new AbortController()
    const started = runJavascript({ code: 'let i = 0\nwhile (true) i++', args: { output: '' }, mode: 'assertion' }, { ...limits, timeoutMs: 20_000 }, early.signal)
    early.abort()
    await expect(started).rejects.toThrow(expect.objectContaining({ code: 'CANCELLED' }))
  })

  it('starts the child with an empty environment: even code that escaped the context finds no secret', async () => {
    process.env[secret] = 'hunter2'
    // What an escape would run: the child's own process, its environment and folder.
    const spec = javascriptChild({ code: 'true', args: { output: '' }, mode: 'assertion' }, limits)
    const escaped = 'process.stdout.write(JSON.stringify({ ok: true, value: { env: process.env, cwd: process.cwd(), files: require("node:fs").readdirSync(".") } }))'
    type Seen = { env: Record<string, string>, cwd: string, files: string[] }
    const seen = await runChild({ ...spec, args: [...spec.args.slice(0, -1), escaped] }, limits) as Seen
    expect(seen.env).toEqual({})
    expect(seen.files).toEqual([])
    expect(seen.cwd).toMatch(/judgeflow-code-/)
    // In its sandbox, the same: only the working folder bwrap gives it.
    const isolated = await runChild({ ...spec, args: [...spec.args.slice(0, -1), escaped], sandbox: await sandboxOf() }, limits) as Seen
    expect(isolated).toEqual({ env: { PWD: '/tmp' }, cwd: '/tmp', files: [] })
    expect(process.env[secret]).toBe('hunter2')
  })
})
