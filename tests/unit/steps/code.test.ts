import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../../core'
import { createProviders, defaultRegistry, runWorkflow, validateWorkflow } from '../../../engine'
import { holdsCode } from '../../../engine/assertions/registry'
import type { EvaluationServices } from '../../../engine/evaluator'
import type { HttpAccess } from '../../../engine/http/access'
import { createScriptRunner, type SandboxLimits } from '../../../engine/sandbox'

// Real JavaScript, TypeScript and Python files run in the real sandbox (bubblewrap, which `npm test` installs where missing).
const { searchPath, maxProcesses } = loadConfig().code
const limits: SandboxLimits = { timeoutMs: 5000, memoryMb: 128, maxProcesses, searchPath, isolation: 'require' }
const providers = createProviders({ env: {} })
const SECRET = 'sk-judgeflow-code-step-test-7f3a'

const FILES: Record<string, string> = {
  'lib/shout.ts': 'export const shout = (text: string): string => `${text.toUpperCase()}!`\n',
  'product.ts': `import { shout } from './lib/shout'
interface Question { question: string }
export default async function (input: Question, context: { node: string, attempt: number }): Promise<string> {
  return shout(input.question) + ' (' + context.node + ', attempt ' + context.attempt + ')'
}
`,
  'answer.mjs': `export function call(input, context) {
  return { text: 'Answer: ' + input.q, words: input.q.split(' ').length, run_input: context.input }
}
`,
  'common.cjs': 'module.exports = { call: (input) => ({ text: String(input.question).length + \' characters\' }) }\n',
  'sees.js': `const { readdirSync, readFileSync } = require('node:fs')
module.exports = async function () {
  let proc = ''
  for (const pid of readdirSync('/proc').filter(name => /^\\d+$/.test(name))) {
    for (const part of ['environ', 'cmdline']) {
      try { proc += readFileSync('/proc/' + pid + '/' + part, 'latin1').replaceAll('\\0', '\\n') } catch {}
    }
  }
  return { text: 'seen', env: { ...process.env }, proc }
}
`,
  'net.mjs': `export default async function (input) {
  console.log('printed, not the answer')
  const response = await fetch('http://127.0.0.1:' + input.port + '/')
  return await response.text()
}
`,
  'helper.ts': 'export function check(value: number): number {\n  if (value < 0) throw new RangeError(\'negative: \' + value)\n  return value\n}\n',
  'throws.ts': 'import { check } from \'./helper\'\nexport default function (input: { n: number }) {\n  return { text: String(check(input.n)) }\n}\n',
  'number.js': 'export default () => 42\n',
  'nested.js': 'export default () => ({ text: 7 })\n',
  'none.js': 'export const answer = 1\n',
  'forever.js': 'export default () => { for (;;) {} }\n',
  'broken.ts': 'export default function (input) {\n  return input +\n}\n',
  'escape.ts': 'import secret from \'../outside.json\'\nexport default () => ({ text: JSON.stringify(secret) })\n',
  'product.py': `import json


def call(input, context):
    return {"text": "py: " + input["question"], "node": context["node"], "keys": sorted(input)}
`,
  'sees.py': `import os


def call(input, context):
    return {"text": "seen", "env": dict(os.environ)}
`,
  'net.py': `import urllib.request


def call(input, context):
    print("printed, not the answer")
    with urllib.request.urlopen("http://127.0.0.1:%d/" % input["port"], timeout=2) as response:
        return response.read().decode()
`,
  'raises.py': `def call(input, context):
    values = [1, 2]
    raise ValueError("no answer for " + input["question"])
`,
  'text.py': 'def call(input, context):\n    return input["question"].upper()\n',
  'list.py': 'def call(input, context):\n    return [1, 2, 3]\n',
}

let root: string
let folder: string
let server: Server
let port: number
let connections = 0

beforeAll(async () => {
  process.env.OPENAI_API_KEY = SECRET
  root = mkdtempSync(join(tmpdir(), 'judgeflow-code-step-'))
  folder = join(root, 'configs')
  for (const [name, text] of Object.entries(FILES)) {
    mkdirSync(join(folder, name, '..'), { recursive: true })
    writeFileSync(join(folder, name), text)
  }
  writeFileSync(join(root, 'outside.json'), '{"private": true}')
  writeFileSync(join(root, 'outside.js'), 'export default () => "outside"\n')
  symlinkSync(join(root, 'outside.js'), join(folder, 'link.js'))
  server = createServer((_request, response) => {
    connections++
    response.writeHead(200, { 'content-type': 'text/plain', 'connection': 'close' }).end('hello')
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as { port: number }).port
})
afterAll(async () => {
  Reflect.deleteProperty(process.env, 'OPENAI_API_KEY')
  rmSync(root, { recursive: true, force: true })
  server.closeAllConnections()
  await new Promise(resolve => server.close(resolve))
})

const access = (env: Record<string, string | undefined>): HttpAccess => ({ policy: { guard: false }, env: [], workflowEnv: true, read: name => env[name] })

function codeWorkflow(config: Record<string, unknown>, settings: Record<string, unknown> = {}) {
  return {
    name: 'call my function',
    settings,
    nodes: [
      { id: 'in', type: 'input', config: {} },
      { id: 'fn', type: 'code', config },
      { id: 'out', type: 'output', config: { value: '{{steps.fn}}' } },
    ],
    edges: [{ from: 'in', to: 'fn' }, { from: 'fn', to: 'out' }],
  }
}

async function run(config: Record<string, unknown>, input: Record<string, unknown> = { question: 'is it on?' }, options: { settings?: Record<string, unknown>, evaluation?: EvaluationServices } = {}) {
  const evaluation = { scripts: createScriptRunner(limits), configDir: folder, ...options.evaluation }
  const result = await runWorkflow(codeWorkflow(config, options.settings), { registry: defaultRegistry, providers, input, evaluation })
  return { result, output: result.steps.fn?.output as Record<string, any> | undefined, error: result.steps.fn?.error?.message ?? '' }
}

describe('the code step: the user\'s own function, run in the sandbox', () => {
  it('runs a TypeScript module\'s default function with its relative imports; a string becomes { text }', async () => {
    const { result, output } = await run({ module: 'product.ts' })
    expect(result.status).toBe('succeeded')
    expect(output).toEqual({ text: 'IS IT ON?! (fn, attempt 1)' })
  }, 30_000)

  it('takes `input` with its references rendered, calls an ES module\'s `call`, and keeps the object it returns', async () => {
    const { output } = await run({ module: 'answer.mjs', input: { q: '{{input.question}}' } })
    expect(output).toEqual({ text: 'Answer: is it on?', words: 3, run_input: { question: 'is it on?' } })
    expect((await run({ module: 'common.cjs' })).output).toEqual({ text: '9 characters' })
  }, 30_000)

  it('runs a Python file\'s call(input, context)', async () => {
    expect((await run({ python: 'product.py' })).output).toEqual({ text: 'py: is it on?', node: 'fn', keys: ['question'] })
    expect((await run({ python: 'text.py' })).output).toEqual({ text: 'IS IT ON?' })
  }, 30_000)

  it('never shows the code judgeflow\'s environment (OPENAI_API_KEY): only the variables its env lists, read by the http step\'s rule', async () => {
    expect(process.env.OPENAI_API_KEY).toBe(SECRET)
    const js = await run({ module: 'sees.js' })
    expect(js.result.status).toBe('succeeded')
    // bubblewrap sets PWD (its --chdir): nothing else is in the code's environment.
    const { PWD: _pwd, ...env } = js.output!.env
    expect(env).toEqual({})
    expect(js.output!.proc).not.toContain(SECRET)
    const py = await run({ python: 'sees.py' })
    expect(JSON.stringify(py.output)).not.toContain(SECRET)
    expect(py.output!.env.OPENAI_API_KEY).toBeUndefined()

    const granted = { evaluation: { http: access({ PRODUCT_TOKEN: 'tok-123', OPENAI_API_KEY: SECRET }) }, settings: { env: ['PRODUCT_TOKEN'] } }
    const withEnv = await run({ module: 'sees.js', env: ['PRODUCT_TOKEN'] }, undefined, granted)
    expect(withEnv.output!.env).toEqual({ PRODUCT_TOKEN: 'tok-123', PWD: '/tmp' })
    expect(withEnv.output!.proc).not.toContain(SECRET)
    expect((await run({ python: 'sees.py', env: ['PRODUCT_TOKEN'] }, undefined, granted)).output!.env.PRODUCT_TOKEN).toBe('tok-123')
    // A name neither JUDGEFLOW_HTTP_ENV nor settings.env lists is refused before any code runs.
    const refused = await run({ module: 'sees.js', env: ['OPENAI_API_KEY'] }, undefined, granted)
    expect(refused.result.status).toBe('failed')
    expect(refused.error).toContain('node "fn": env reads {{env.OPENAI_API_KEY}}, which is not readable: list OPENAI_API_KEY in JUDGEFLOW_HTTP_ENV or the workflow\'s settings.env')
  }, 60_000)

  it('has no network unless its config says network: true (a loopback server the test started)', async () => {
    const before = connections
    const js = await run({ module: 'net.mjs' }, { port })
    expect(js.result.status).toBe('failed')
    expect(js.error).toMatch(/fetch failed.*network: true/)
    const py = await run({ python: 'net.py' }, { port })
    expect(py.error).toMatch(/URLError: <urlopen error \[Errno 111\] Connection refused>.*network: true/)
    expect(connections).toBe(before)

    expect((await run({ module: 'net.mjs', network: true }, { port })).output).toEqual({ text: 'hello' })
    expect((await run({ python: 'net.py', network: true }, { port })).output).toEqual({ text: 'hello' })
    expect(connections).toBe(before + 2)
  }, 60_000)

  it('fails the step with a thrown error\'s message and the first frame in the user\'s files, never a pass', async () => {
    const js = await run({ module: 'throws.ts' }, { n: -2 })
    expect(js.result.status).toBe('failed')
    expect(js.error).toBe('node "fn": The JavaScript code threw an error: RangeError: negative: -2 (at helper.ts:2:24)')
    expect((await run({ module: 'throws.ts' }, { n: 3 })).output).toEqual({ text: '3' })
    const py = await run({ python: 'raises.py' })
    expect(py.error).toBe('node "fn": The Python code threw an error: ValueError: no answer for is it on? (line 3 of raises.py)')
    expect((await run({ module: 'broken.ts' })).error).toBe('node "fn": The module broken.ts could not be loaded: Unexpected "}" (broken.ts:3:1)')
    expect((await run({ module: 'none.js' })).error).toContain('none.js exports no function to call: export default async function (input, context), or export function call(input, context)')
  }, 60_000)

  it('refuses what is neither a string nor an object, naming the node and what came back', async () => {
    expect((await run({ module: 'number.js' })).error).toBe('node "fn": number.js returned a number (42); a code step\'s function returns a string (its text) or an object (its output\'s fields, text a string).')
    expect((await run({ module: 'nested.js' })).error).toContain('nested.js returned an object whose text is a number (7)')
    expect((await run({ python: 'list.py' })).error).toContain('list.py returned an array (of 3 items)')
  }, 30_000)

  it('stops the code at its timeout_ms', async () => {
    const { error } = await run({ module: 'forever.js', timeout_ms: 300 })
    expect(error).toContain('node "fn": The JavaScript code was stopped after 300 ms, the time limit')
  }, 30_000)

  it('reads files only in the config folder, saying which folder it looked in', async () => {
    const looked = `the config folder ${folder} (JUDGEFLOW_CONFIG_DIR; ./configs unless set)`
    expect((await run({ module: '../outside.js' })).error).toBe(`node "fn": module "../outside.js" is outside ${looked}: a code step runs only files in that folder.`)
    expect((await run({ module: join(root, 'outside.js') })).error).toContain('is outside the config folder')
    expect((await run({ module: 'link.js' })).error).toContain('module "link.js" is outside the config folder')
    expect((await run({ python: 'missing.py' })).error).toBe(`node "fn": python "missing.py" was not found in ${looked}.`)
    expect((await run({ module: 'escape.ts' })).error).toContain(`escape.ts imports ${join(root, 'outside.json')}, which is outside ${folder}`)
  }, 30_000)

  it('is refused where code is not allowed, or cannot be isolated where isolation is required', async () => {
    const { error } = await run({ module: 'product.ts' }, undefined, { evaluation: { scripts: undefined } })
    expect(error).toContain('node "fn": a code step runs code, which this server does not allow: set JUDGEFLOW_ALLOW_CODE=1')
    const noSandbox = createScriptRunner({ ...limits, searchPath: '/nonexistent' })
    const refused = await run({ module: 'product.ts' }, undefined, { evaluation: { scripts: noSandbox } })
    expect(refused.error).toMatch(/^node "fn": code steps run code, which this server runs only in a sandbox, and bubblewrap \(bwrap\).* is not installed/)
  }, 30_000)

  it('is checked before it runs: one of module and python, no reference in the path; its outputs are declared', () => {
    const problems = (config: Record<string, unknown>) => validateWorkflow(codeWorkflow(config), defaultRegistry).problems.map(p => p.message).join('\n')
    expect(problems({})).toContain('give module (a JavaScript or TypeScript file) or python (a Python file)')
    expect(problems({ module: 'a.js', python: 'a.py' })).toContain('give module or python, not both')
    expect(problems({ module: '{{input.file}}' })).toContain('cannot hold a {{reference}}')
    expect(problems({ python: 'a.js' })).toContain('must name a .py file')
    expect(validateWorkflow(codeWorkflow({ module: 'a.ts', network: true, env: ['TOKEN'], timeout_ms: 1000 }), defaultRegistry).ok).toBe(true)
    const reading = codeWorkflow({ module: 'a.ts' })
    reading.nodes[2]!.config = { value: '{{steps.fn.text}} {{steps.fn.score}}' }
    expect(validateWorkflow(reading, defaultRegistry).ok).toBe(true)
  })

  it('counts as code: the CLI\'s note and the server\'s refusals see it', () => {
    expect(holdsCode(codeWorkflow({ module: 'a.ts' }))).toBe(true)
    expect(holdsCode({ nodes: [{ id: 'x', type: 'llm', config: { prompt: 'code' } }] })).toBe(false)
  })
})
