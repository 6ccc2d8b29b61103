/**
 * The source the JavaScript child process runs (`node -e`), kept as text so nothing has to be
 * found on disk once the server is bundled. It reads `{ body, params, argsJson, timeoutMs }` on
 * stdin and writes one answer on stdout:
 * `{ ok: true, value? , number? }` or `{ ok: false, kind: 'threw' | 'json' | 'timeout', message? }`.
 *
 * The code runs in a `vm` context of plain JavaScript globals with string compilation and
 * WebAssembly off. Nothing of the runner's realm ever reaches it: its arguments are parsed from
 * text inside the context, its result is awaited and serialised there, and the one function
 * handed in — the answer callback — has no prototype (no `.constructor` to climb) and never throws.
 */

/**
 * Runs inside the context before the code: returns `run(fn, argsJson)`, which reports one JSON text.
 * A code step's module runner (module-runner.ts) calls its function with it too: one encoding of results.
 */
export const DRIVER = String.raw`(report) => {
  const { stringify, parse } = JSON
  const finite = Number.isFinite
  const isArray = Array.isArray
  const describe = (thrown) => {
    try {
      if (thrown !== null && typeof thrown === 'object' && typeof thrown.message === 'string') {
        return typeof thrown.name === 'string' && thrown.name ? thrown.name + ': ' + thrown.message : thrown.message
      }
      return String(thrown)
    }
    catch { return 'a value that cannot be shown' }
  }
  const fail = (thrown) => report(stringify({ ok: false, kind: 'threw', message: describe(thrown) }))
  const encode = (value) => {
    if (value === undefined) return stringify({ ok: true })
    if (typeof value === 'number' && !finite(value)) return stringify({ ok: true, number: String(value) })
    const envelope = { ok: true, value }
    let problem
    const replacer = function (key, item) {
      if (problem !== undefined) return item
      const kind = typeof item
      if (kind === 'function' || kind === 'symbol' || kind === 'bigint') problem = 'a ' + kind
      else if (kind === 'number' && !finite(item)) problem = String(item)
      else if (item === undefined && isArray(this)) problem = 'undefined in an array'
      if (problem !== undefined && this !== envelope) problem += ' at key "' + key + '"'
      return item
    }
    try {
      const text = stringify(envelope, replacer)
      return problem === undefined ? text : stringify({ ok: false, kind: 'json', message: problem })
    }
    catch (error) { return stringify({ ok: false, kind: 'json', message: problem ?? describe(error) }) }
  }
  return (fn, argsJson) => {
    let pending
    try { pending = fn(...parse(argsJson)) }
    catch (thrown) { fail(thrown); return }
    (async () => pending)().then(value => report(encode(value)), fail)
  }
}`

const START = '(() => { const g = globalThis, run = g.__run, fn = g.__fn, args = g.__args; delete g.__run; delete g.__fn; delete g.__args; run(fn, args) })()'

/** A console that accepts what code prints for debugging and drops it (there is no one to read it). */
const CONSOLE = 'globalThis.console = Object.freeze({ log() {}, info() {}, warn() {}, error() {}, debug() {}, trace() {} })'

export const JAVASCRIPT_RUNNER = String.raw`'use strict'
const vm = require('node:vm')
const DRIVER = ${JSON.stringify(DRIVER)}
const START = ${JSON.stringify(START)}
const CONSOLE = ${JSON.stringify(CONSOLE)}
const chunks = []
let answered = false
function answer(outcome) {
  if (answered) return
  answered = true
  process.stdout.write(typeof outcome === 'string' ? outcome : JSON.stringify(outcome), () => process.exit(0))
}
function start(request) {
  const context = vm.createContext(Object.create(null), { codeGeneration: { strings: false, wasm: false } })
  new vm.Script(CONSOLE).runInContext(context)
  let fn
  try { fn = vm.compileFunction(request.body, request.params, { parsingContext: context }) }
  catch (error) { return answer({ ok: false, kind: 'threw', message: String(error) }) }
  let reported = false
  const report = (text) => {
    try {
      if (reported || typeof text !== 'string') return
      setImmediate(answer, text)
      reported = true
    }
    catch {}
  }
  Object.setPrototypeOf(report, null)
  context.__run = new vm.Script(DRIVER).runInContext(context)(report)
  context.__fn = fn
  context.__args = request.argsJson
  try { new vm.Script(START).runInContext(context, { timeout: request.timeoutMs }) }
  catch (error) {
    if (error instanceof Error && error.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') answer({ ok: false, kind: 'timeout' })
    else answer({ ok: false, kind: 'threw', message: 'the code stopped the runner' })
  }
}
process.stdin.on('data', chunk => chunks.push(chunk))
process.stdin.on('end', () => start(JSON.parse(Buffer.concat(chunks).toString('utf8'))))
`
