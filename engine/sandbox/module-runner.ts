/**
 * The source the Node child of a code step runs (`node --enable-source-maps -e`), kept as text so
 * nothing has to be found on disk once the server is bundled. It reads
 * `{ source, label, argsJson, env }` on stdin, writes the bundle (module-bundle.ts) into its
 * working folder, imports it and calls its `default` function — or its `call` — with the
 * arguments, and writes one answer on stdout, as the javascript runner does (the same DRIVER
 * encodes the result). Unlike an assertion, the module runs in plain Node: the sandbox, not a
 * `vm` context, is what keeps it from the machine. What it prints goes to stderr, so it cannot
 * spoil the answer; a thrown error is reported with the first frame in the user's files.
 */
import { BUNDLE_NAME } from './module-bundle'
import { DRIVER } from './javascript-runner'

export const MODULE_RUNNER = String.raw`'use strict'
const { writeFileSync } = require('node:fs')
const { join } = require('node:path')
const { pathToFileURL } = require('node:url')
const DRIVER = ${JSON.stringify(DRIVER)}
const BUNDLE_NAME = ${JSON.stringify(BUNDLE_NAME)}
const stdout = process.stdout.write.bind(process.stdout)
const exit = process.exit.bind(process)
process.stdout.write = process.stderr.write.bind(process.stderr)
let answered = false
function answer(outcome) {
  if (answered) return
  answered = true
  stdout(typeof outcome === 'string' ? outcome : JSON.stringify(outcome), () => exit(0))
}
const threw = message => answer({ ok: false, kind: 'threw', message })
function firstUserFrame(stack, folder) {
  for (const line of String(stack).split('\n').slice(1)) {
    const at = /\(?((?:file:\/\/)?[^\s()]+):(\d+):(\d+)\)?\s*$/.exec(line.trim())
    if (!at) continue
    const path = at[1].replace(/^file:\/\//, '')
    if (path.startsWith(folder + '/') && !path.endsWith('/' + BUNDLE_NAME) && !path.includes('/node_modules/')) return path.slice(folder.length + 1) + ':' + at[2] + ':' + at[3]
  }
  return undefined
}
function withFrame(error, folder) {
  try {
    if (error === null || typeof error !== 'object' || typeof error.message !== 'string') return error
    const frame = firstUserFrame(error.stack, folder)
    const name = typeof error.name === 'string' && error.name ? error.name : 'Error'
    return frame ? { name, message: error.message + ' (at ' + frame + ')' } : error
  }
  catch { return error }
}
async function start(request) {
  for (const [name, value] of Object.entries(request.env)) process.env[name] = value
  const folder = process.cwd()
  const file = join(folder, BUNDLE_NAME)
  writeFileSync(file, request.source)
  if (request.style === 'main') return runMain(request, file, folder)
  let module
  try { module = await import(pathToFileURL(file).href) }
  catch (error) { return threw('loading it: ' + String(withFrame(error, folder).message ?? error)) }
  if (request.style === 'provider') return callProvider(request, module, folder)
  const exported = module.default
  const fn = typeof exported === 'function' ? exported
    : typeof module.call === 'function' ? module.call
      : exported !== null && typeof exported === 'object' && typeof exported.call === 'function' ? exported.call : undefined
  if (!fn) return threw(request.label + ' exports no function to call: export default async function (input, context), or export function call(input, context)')
  const called = async (...args) => {
    try { return await fn(...args) }
    catch (error) { throw withFrame(error, folder) }
  }
  ;(0, eval)(DRIVER)(text => setImmediate(answer, text))(called, request.argsJson)
}
// promptfoo's exec: the script is the program, with its arguments; what it writes on stdout is the value.
async function runMain(request, file, folder) {
  const captured = []
  process.stdout.write = (chunk, encoding, done) => {
    captured.push(Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8'))
    const callback = typeof encoding === 'function' ? encoding : done
    if (callback) callback()
    return true
  }
  const finish = () => answer({ ok: true, value: Buffer.concat(captured).toString('utf8') })
  process.exit = code => (code ? threw(request.label + ' exited with ' + code) : finish())
  process.argv = [process.argv[0], join(folder, request.label), ...request.argv]
  process.once('beforeExit', finish)
  try { await import(pathToFileURL(file).href) }
  catch (error) { threw(String(withFrame(error, folder).message ?? error)) }
}
// promptfoo's provider file: its default export is a class, made with the provider's options, whose callApi answers.
function callProvider(request, module, folder) {
  const Provider = module.default
  if (typeof Provider !== 'function') return threw(request.label + ' exports no provider class: module.exports = class { callApi(prompt, context) { … } }, or export default such a class')
  const called = async (options, prompt, context) => {
    try {
      const provider = new Provider(options)
      if (typeof provider.callApi !== 'function') throw new Error(request.label + '\'s provider has no callApi(prompt, context) method')
      return await provider.callApi(prompt, context, {})
    }
    catch (error) { throw withFrame(error, folder) }
  }
  ;(0, eval)(DRIVER)(text => setImmediate(answer, text))(called, request.argsJson)
}
const chunks = []
process.stdin.on('data', chunk => chunks.push(chunk))
process.stdin.on('end', () => start(JSON.parse(Buffer.concat(chunks).toString('utf8'))).catch(error => threw(String(error))))
`
