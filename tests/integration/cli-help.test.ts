/**
 * The CLI explains itself: every command's --help (its flags, one line each, and an example),
 * --version, "did you mean" for a misspelt flag or command, serve's --port/--host/--db, and the
 * reports named as the person named their files. The bin runs as a user runs it (node + tsx).
 * The serve test needs the built app, as `npm test` builds it first (JUDGEFLOW_BUILD_DIR: another build).
 */
import { execFile, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { COMMANDS } from '../../cli/help/commands'
import {
  datasetReportToHtml, datasetReportToJunit, datasetReportToMarkdown, datasetResultsToCsv, datasetResultsToJsonl, parseDataset, type DatasetReport,
} from '../../main/library'
import { waitFor } from '../support/app-server'
import { qualityGate } from '../support/workflows'

const root = resolve(import.meta.dirname, '../..')
const dir = mkdtempSync(join(tmpdir(), 'judgeflow-cli-help-'))
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version

function file(name: string, content: unknown): string {
  const path = join(dir, name)
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content))
  return path
}

/** Runs the `judgeflow` bin from the repo root, as `npx judgeflow` runs it; `node` are node's own flags. */
function judgeflow(args: string[], env: Record<string, string> = {}, node: string[] = []): Promise<{ code: number, stdout: string, stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [...node, join(root, 'bin/judgeflow.mjs'), ...args], { cwd: root, env: { PATH: process.env.PATH!, HOME: process.env.HOME!, ...env } }, (error, stdout, stderr) => {
      done({ code: error ? (error as { code?: number }).code ?? 1 : 0, stdout, stderr })
    })
  })
}

function freePort(): Promise<number> {
  return new Promise((settle) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => settle(port))
    })
  })
}

describe('judgeflow <command> --help', () => {
  for (const [command, help] of Object.entries(COMMANDS)) {
    it(`${command} --help: its usage, each flag on a line with its meaning, an example; exit 0`, async () => {
      const result = await judgeflow([command, '--help'])
      expect(result.code).toBe(0)
      expect(result.stderr).toBe('')
      expect(result.stdout).toContain(`judgeflow ${command} — `)
      expect(result.stdout).toMatch(/\nUsage:\n {2}judgeflow /)
      const lines = result.stdout.split('\n')
      for (const flag of Object.keys(help.flags)) {
        const line = lines.find(l => new RegExp(`^ {2}--${flag}(\\s|$)`).test(l))
        expect(line, `--${flag} in judgeflow ${command} --help`).toMatch(new RegExp(`^ {2}--${flag}( <[^>]+>| \\S+)? {2,}\\w.{8,}`))
      }
      const examples = lines.slice(lines.indexOf('Examples:') + 1)
      expect(examples.some(l => /^ {2}(\S+=\S+ )?judgeflow /.test(l) && l.includes(command))).toBe(true)
      expect(result.stdout).toMatch(/\nExit codes: 0 /)
    })
  }

  it('-h and `judgeflow help <command>` print the same; a flag\'s value that is -h is not a request for help', async () => {
    const long = await judgeflow(['test', '--help'])
    expect((await judgeflow(['test', '-h'])).stdout).toBe(long.stdout)
    expect((await judgeflow(['help', 'test'])).stdout).toBe(long.stdout)
    const asValue = await judgeflow(['run', file('gate.json', qualityGate(['x'], [true])), '--input-json=-h'])
    expect(asValue.stdout).not.toContain('Usage:')
    expect(asValue.stderr).toContain('--input-json')
  }, 120_000)

  it('serve --help names --port, --host, --db and the PORT, HOST and JUDGEFLOW_DB variables', async () => {
    const { stdout } = await judgeflow(['serve', '--help'])
    for (const name of ['--port N', '--host <host>', '--db <path>', '--no-worker', 'PORT, HOST', 'JUDGEFLOW_DB', 'JUDGEFLOW_DATABASE_URL']) expect(stdout).toContain(name)
  }, 120_000)

  it('judgeflow --help loads none of the commands\' code, the engine, the configuration or zod', async () => {
    const log = join(dir, 'modules.log')
    writeFileSync(log, '')
    for (const args of [['--help'], ['test', '--help'], ['serve', '-h'], ['--version']]) {
      const result = await judgeflow(args, { JUDGEFLOW_MODULE_LOG: log }, ['--import', join(root, 'tests/support/module-log.mjs')])
      expect(result.code).toBe(0)
    }
    const loaded = readFileSync(log, 'utf8').split('\n').filter(url => url.startsWith('file:'))
    expect(loaded.some(url => url.endsWith('/cli/help/commands.ts'))).toBe(true)
    const ours = loaded.filter(url => !url.includes('/node_modules/')).map(url => url.slice(`file://${root}/`.length))
    // engine/text/own-json.ts is package.json's reader: a leaf that imports nothing (checked below).
    expect(ours.filter(path => !/^(bin\/judgeflow\.mjs|cli\/(main|usage|process-io|package-root)\.ts|cli\/help\/[\w-]+\.ts|engine\/text\/own-json\.ts)$/.test(path))).toEqual([])
    expect(readFileSync(join(root, 'engine/text/own-json.ts'), 'utf8')).not.toMatch(/^import /m)
    expect(loaded.filter(url => url.includes('/node_modules/') && !url.includes('/node_modules/tsx/'))).toEqual([])
  }, 120_000)
})

describe('judgeflow --version, unknown flags and commands', () => {
  it('--version and -v print the package\'s version, exit 0', async () => {
    for (const flag of ['--version', '-v']) {
      const result = await judgeflow([flag])
      expect(result.code).toBe(0)
      expect(result.stdout.trim()).toBe(version)
    }
  }, 120_000)

  it('a misspelt flag is named with the nearest of that command\'s own flags, exit 2, instead of the parser\'s message', async () => {
    const test = await judgeflow(['test', file('w.json', qualityGate(['x'], [true])), '--datset', 'cases.csv'])
    expect(test.code).toBe(2)
    expect(test.stderr.trim()).toBe('Unknown option \'--datset\'. Did you mean --dataset? (judgeflow test --help lists its options)')
    const run = await judgeflow(['run', 'w.json', '--inptu-json', '{}'])
    expect(run.stderr.trim()).toBe('Unknown option \'--inptu-json\'. Did you mean --input-json? (judgeflow run --help lists its options)')
    const serve = await judgeflow(['serve', '--prot', '8080'])
    expect(serve.stderr.trim()).toBe('Unknown option \'--prot\'. Did you mean --port? (judgeflow serve --help lists its options)')
    const far = await judgeflow(['backup', 'out.db', '--everything'])
    expect(far.code).toBe(2)
    expect(far.stderr.trim()).toBe('Unknown option \'--everything\'. judgeflow backup --help lists its options.')
    const validate = await judgeflow(['validate', '--strict', 'w.json'])
    expect(validate.code).toBe(2)
    expect(validate.stderr.trim()).toBe('Unknown option \'--strict\'. judgeflow validate --help lists its options.')
  }, 120_000)

  it('a misspelt command is named with the nearest command, exit 2', async () => {
    const result = await judgeflow(['tset', 'w.json'])
    expect(result.code).toBe(2)
    expect(result.stderr.trim()).toBe('Unknown command \'tset\'. Did you mean test? Commands: validate, run, eval, test, import, experiment, backup, traces, review, db, serve, worker (judgeflow --help).')
    const option = await judgeflow(['--verbose'])
    expect(option.code).toBe(2)
    expect(option.stderr).toContain('Unknown option \'--verbose\'. judgeflow --help lists the commands')
  }, 120_000)
})

describe('judgeflow serve --port --host --db', () => {
  it('refuses a port that is not one, before anything starts', async () => {
    for (const port of ['http', '70000', '-1']) {
      const result = await judgeflow(['serve', `--port=${port}`])
      expect(result.code).toBe(2)
      expect(result.stderr.trim()).toBe(`--port must be a port number from 0 to 65535, not "${port}".`)
    }
  }, 120_000)

  it('listens where --port and --host say, over PORT and HOST, with its database at --db', async () => {
    const build = process.env.JUDGEFLOW_BUILD_DIR ? resolve(process.env.JUDGEFLOW_BUILD_DIR, 'output') : join(root, '.output')
    if (!existsSync(join(build, 'server/index.mjs'))) throw new Error(`the app is not built (no ${build}): run \`npx nuxt build\` (npm test does it first)`)
    const [port, other] = [await freePort(), await freePort()]
    const db = join(dir, 'served', 'judgeflow.db')
    const env = { PATH: process.env.PATH!, HOME: process.env.HOME!, PORT: String(other), HOST: '0.0.0.0', NUXT_TELEMETRY_DISABLED: '1', ...(process.env.JUDGEFLOW_BUILD_DIR ? { JUDGEFLOW_BUILD_DIR: process.env.JUDGEFLOW_BUILD_DIR } : {}) }
    // From the checkout's root, as `npm start`: the server finds its migrations there. A process group of
    // its own, stopped whole at the end: the CLI, start.mjs and the server.
    const child = spawn(process.execPath, [join(root, 'bin/judgeflow.mjs'), 'serve', '--port', String(port), '--host', '127.0.0.1', '--db', db], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let output = ''
    child.stdout.on('data', (chunk) => { output += chunk })
    child.stderr.on('data', (chunk) => { output += chunk })
    try {
      const health = await waitFor(async () => {
        if (child.exitCode !== null) throw new Error(`judgeflow serve exited with ${child.exitCode}:\n${output}`)
        const response = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null)
        return response?.ok ? response.status : undefined
      }, 600_000, 'judgeflow serve to answer')
      expect(health).toBe(200)
      expect(output).toContain(`serving http://127.0.0.1:${port} (database ${db})`)
      expect(existsSync(db)).toBe(true)
      expect(await fetch(`http://127.0.0.1:${other}/api/health`).then(() => 'answered', () => 'refused')).toBe('refused')
    }
    finally {
      const exited = child.exitCode === null && child.signalCode === null ? new Promise(done => child.once('exit', done)) : undefined
      try {
        process.kill(-child.pid!, 'SIGTERM')
      }
      catch {
        // The group has ended already.
      }
      await exited
    }
  }, 660_000)
})

describe('the reports name what the person named; messages end once', () => {
  const dataset = file('cases.jsonl', ['a', 'b'].map(q => JSON.stringify({ id: q, input: { question: q } })).join('\n'))

  it('the Markdown report names the workflow file, not a stored id', async () => {
    const workflow = file('gate-for-markdown.json', qualityGate(['x'], [true]))
    const result = await judgeflow(['test', workflow, '--dataset', dataset, '--markdown'])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(`Target: the workflow file \`${workflow}\`.`)
    expect(result.stdout).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/)
  }, 120_000)

  it('a message ending in "did you mean …?" takes no full stop after it (run, test, eval)', async () => {
    const typo = {
      name: 'typo',
      nodes: [
        { id: 'in', type: 'input', config: { fields: { question: { type: 'string', required: true } } } },
        { id: 'judge', type: 'evaluator', config: { evaluation_type: 'scorers', content: '{{input.question}}', expected: 'a', scorers: [{ type: 'exact-match', treshold: 0.5 }] } },
      ],
      edges: [{ from: 'in', to: 'judge' }],
    }
    const workflow = file('typo.json', typo)
    const run = await judgeflow(['run', workflow, '--input-json', '{"question":"a"}'])
    expect(run.code).toBe(2)
    expect(run.stderr.trim()).toBe('The workflow is invalid: node "judge": nodes.judge.config.scorers[0]: unknown key "treshold": did you mean "threshold"?')
    const test = await judgeflow(['test', workflow, '--dataset', dataset])
    expect(test.stderr).toContain('did you mean "threshold"?\n')
    const evaluator = await judgeflow(['test', '--config', file('judge.json', typo.nodes[1]!.config), '--dataset', dataset])
    expect(evaluator.stderr).toContain('did you mean "threshold"?')
    for (const result of [run, test, evaluator]) expect(result.stderr).not.toMatch(/[?!][.]/)
  }, 120_000)

  it('the library\'s report writers write what judgeflow test writes', async () => {
    const workflow = file('gate-for-files.json', qualityGate(['x'], [true, false]))
    const out = (name: string) => join(dir, name)
    const result = await judgeflow(['test', workflow, '--dataset', dataset, '--min-pass-rate', '0',
      '--report', out('r.json'), '--junit', out('r.xml'), '--html', out('r.html'), '--csv', out('r.csv'), '--jsonl', out('r.jsonl'), '--markdown'])
    expect(result.code).toBe(0)
    const report = JSON.parse(readFileSync(out('r.json'), 'utf8')) as DatasetReport
    const cases = parseDataset(readFileSync(dataset, 'utf8'), 'jsonl')
    expect(datasetReportToJunit(report)).toBe(readFileSync(out('r.xml'), 'utf8'))
    expect(datasetReportToHtml(report, cases)).toBe(readFileSync(out('r.html'), 'utf8'))
    expect(datasetResultsToCsv(report)).toBe(readFileSync(out('r.csv'), 'utf8'))
    expect(datasetResultsToJsonl(report)).toBe(readFileSync(out('r.jsonl'), 'utf8'))
    expect(`${datasetReportToMarkdown(report, cases, { target: { what: 'workflow file', name: workflow } })}\n`).toBe(result.stdout)
  }, 120_000)
})
