/**
 * judgeflow as another project installs it: `npm pack` (its prepack compiles dist/), the tarball
 * installed into a fresh project (`npm install` reaches the registry; the npm cache is reused), then
 * the CLI, the library's types, the README's examples and `judgeflow serve` used from there. One
 * tarball and one install serve every check. Needs the built app (.output/).
 */
import { execFile, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { waitFor } from '../support/app-server'

const root = resolve(import.meta.dirname, '../..')
const project = mkdtempSync(join(tmpdir(), 'judgeflow-package-'))
const installed = join(project, 'node_modules/judgeflow')
const env = { PATH: process.env.PATH!, HOME: process.env.HOME!, NUXT_TELEMETRY_DISABLED: '1', npm_config_update_notifier: 'false' }
let tarball = ''
/** The consumer's tsconfig: strict, and the package's declarations checked too (no skipLibCheck). */
const strictTsconfig = (files: string[]) => JSON.stringify({
  compilerOptions: {
    target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true,
    types: ['node'], typeRoots: [join(root, 'node_modules/@types')],
  },
  files,
})
const tsc = (project: string) => sh(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], project)

/** The README's code block that starts with the comment `// <file>`, as written. */
function readmeExample(file: string): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  const block = [...readme.matchAll(/```(?:js|ts)\n([\s\S]*?)```/g)].map(match => match[1]!).find(code => code.startsWith(`// ${file}\n`))
  if (!block) throw new Error(`README.md has no code block starting with "// ${file}"`)
  return block
}

function sh(command: string, args: string[], cwd: string, extra: Record<string, string> = {}): Promise<{ code: number, stdout: string, stderr: string }> {
  return new Promise((done) => {
    execFile(command, args, { cwd, env: { ...env, ...extra }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      done({ code: error ? (error as { code?: number }).code ?? 1 : 0, stdout, stderr })
    })
  })
}

function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => done(port))
    })
  })
}

beforeAll(async () => {
  if (!existsSync(join(root, '.output/server/index.mjs'))) throw new Error('the app is not built (no .output/): run `npx nuxt build` (npm test does it first)')
  const packed = await sh('npm', ['pack', '--pack-destination', project], root)
  expect(packed.code, packed.stderr).toBe(0)
  tarball = readdirSync(project).find(name => name.endsWith('.tgz'))!
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'uses-judgeflow', private: true, type: 'module' }))
  const install = await sh('npm', ['install', '--no-audit', '--no-fund', `./${tarball}`], project)
  expect(install.code, install.stderr).toBe(0)
}, 900_000)

afterAll(async () => {
  rmSync(project, { recursive: true, force: true })
})

describe('judgeflow installed from its tarball', () => {
  it('ships compiled code, the built app and the examples, not the sources or the tests', () => {
    expect(existsSync(join(installed, 'dist/cli.js'))).toBe(true)
    expect(existsSync(join(installed, 'dist/types/main/library.d.ts'))).toBe(true)
    expect(existsSync(join(installed, '.output/server/index.mjs'))).toBe(true)
    expect(existsSync(join(installed, 'examples/quality-gate.json'))).toBe(true)
    for (const left of ['cli/main.ts', 'engine', 'tests', 'bench', 'nuxt.config.ts']) expect(existsSync(join(installed, left)), left).toBe(false)
  })

  it('ships no native code: no compiled addon, no copy of better-sqlite3 or esbuild in the built app', async () => {
    const listing = await sh('tar', ['-tzf', tarball], project)
    expect(listing.code, listing.stderr).toBe(0)
    const files = listing.stdout.trim().split('\n')
    expect(files.length).toBeGreaterThan(100)
    expect(files.filter(file => file.endsWith('.node'))).toEqual([])
    expect(files.filter(file => /\/node_modules\/(better-sqlite3|bindings|esbuild|@esbuild)\//.test(file))).toEqual([])
  })

  it('the built server loads better-sqlite3 from the installed package\'s dependencies, built at install', () => {
    const server = createRequire(join(installed, '.output/server/index.mjs'))
    const sqlite = server.resolve('better-sqlite3')
    expect(sqlite.startsWith(join(project, 'node_modules/better-sqlite3/'))).toBe(true)
    expect(existsSync(join(project, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'))).toBe(true)
    expect(server.resolve('esbuild').startsWith(join(project, 'node_modules/esbuild/'))).toBe(true)
  })

  it('installs what it runs, not the app\'s build tools', () => {
    const lock = JSON.parse(readFileSync(join(project, 'node_modules/.package-lock.json'), 'utf8')) as { packages: Record<string, unknown> }
    const packages = Object.keys(lock.packages).filter(path => path.startsWith('node_modules/'))
    expect(packages.length).toBeLessThanOrEqual(150)
    for (const tool of ['nuxt', 'vite', 'vue', '@vue-flow/core', 'pinia', 'chart.js', 'typescript']) expect(packages, tool).not.toContain(`node_modules/${tool}`)
  })

  it('every command answers --help with exit 0, and --version with the package\'s version', async () => {
    const bin = join(project, 'node_modules/.bin/judgeflow')
    const commands = readdirSync(join(root, 'cli/commands')).filter(name => name.endsWith('.ts')).map(name => name.slice(0, -3))
    expect(commands).toContain('test')
    for (const args of [['--help'], ...commands.map(command => [command, '--help'])]) {
      const help = await sh(process.execPath, [bin, ...args], project)
      expect(help.code, `judgeflow ${args.join(' ')}: ${help.stderr}`).toBe(0)
      expect(help.stdout, args.join(' ')).toContain(args.length > 1 ? `judgeflow ${args[0]}` : 'judgeflow')
    }
    const version = await sh(process.execPath, [bin, '--version'], project)
    expect(version.code).toBe(0)
    expect(version.stdout.trim()).toContain(JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).version)
  }, 120_000)

  it('npx judgeflow test runs an example workflow over its dataset with the offline judge', async () => {
    const examples = join(installed, 'examples')
    const result = await sh('npx', ['--no-install', 'judgeflow', 'test', join(examples, 'quality-gate.json'), '--dataset', join(examples, 'datasets/support-questions.csv'), '--min-pass-rate', '0.4'], project)
    expect(result.stderr).not.toMatch(/tsx|Error:/)
    expect(result.stdout).toContain('support-questions: 5 passed, 7 failed, 0 errored of 12 cases')
    expect(result.code).toBe(0)
  }, 120_000)

  it('the library imports with its types and runs a dataset without the app', async () => {
    writeFileSync(join(project, 'gate.ts'), [
      `import { evaluate, parseDataset, runDataset, runWorkflow, type DatasetReport } from 'judgeflow'`,
      `import { readFileSync } from 'node:fs'`,
      `const cases = parseDataset(readFileSync('node_modules/judgeflow/examples/datasets/support-questions.csv', 'utf8'), 'csv')`,
      `const workflow = JSON.parse(readFileSync('node_modules/judgeflow/examples/quality-gate.json', 'utf8')) as Record<string, unknown>`,
      `const report: DatasetReport = await runDataset({ workflow, cases, gates: { min_pass_rate: 0.4 } })`,
      `const rate: number | null = report.pass_rate`,
      `// @ts-expect-error: a report's counts are numbers`,
      `const wrong: string = report.passed`,
      `console.log(JSON.stringify({ passed: report.passed, rate, kinds: [typeof evaluate, typeof runWorkflow], wrong }))`,
    ].join('\n'))
    writeFileSync(join(project, 'tsconfig.json'), strictTsconfig(['gate.ts']))
    const typecheck = await tsc(project)
    expect(typecheck.stdout + typecheck.stderr).toBe('')
    expect(typecheck.code).toBe(0)
    const run = await sh(process.execPath, ['--import', 'tsx', 'gate.ts'], project)
    expect(run.stderr).toBe('')
    expect(JSON.parse(run.stdout)).toMatchObject({ passed: 5, kinds: ['function', 'function'] })
  }, 120_000)

  it('the README\'s library examples run as written in an ES-module project, the typed one checked with --strict', async () => {
    writeFileSync(join(project, 'readme-gate.js'), readmeExample('gate.js'))
    const gate = await sh(process.execPath, ['readme-gate.js'], project)
    expect(gate.stderr).toBe('')
    expect(gate.stdout).toBe('5 of 12 passed\n')
    expect(gate.code).toBe(0)

    writeFileSync(join(project, 'judge.ts'), readmeExample('judge.ts'))
    writeFileSync(join(project, 'tsconfig.json'), strictTsconfig(['judge.ts']))
    const typecheck = await tsc(project)
    expect(typecheck.stdout + typecheck.stderr).toBe('')
    expect(typecheck.code).toBe(0)
    const judge = await sh('npx', ['--no-install', 'tsx', 'judge.ts'], project)
    expect(judge.stderr).toBe('')
    expect(judge.stdout).toMatch(/^true 0\.\d+ /)
  }, 120_000)

  it('the README\'s target example runs as written: the caller\'s function judged, a throw erroring its case', async () => {
    // As the README shows it: plain JavaScript in an ES-module project (npm init -y, "type": "module").
    writeFileSync(join(project, 'gate-api.js'), `import { runDataset } from 'judgeflow'

// Your product: here a function; in your project, a call to your API or your own code.
async function answer(question) {
  if (question.includes('password')) return 'Open Settings, choose "Forgot password", enter your email address and follow the link we send you.'
  throw new Error('the support API answered 503')
}

const report = await runDataset({
  target: async input => answer(input.question),
  evaluator: { evaluation_type: 'scoring', model: 'local:heuristic', pass_threshold: 0.5, context: '{{input.question}}' },
  cases: [
    { id: 'reset', input: { question: 'How do I reset my password?' } },
    { id: 'refund', input: { question: 'Can I get a refund?' } },
  ],
  gates: { min_pass_rate: 1, max_errors: 0 },
})
for (const r of report.results) console.log(r.case_id, r.status, r.verdict ?? r.error)
console.log(\`\${report.passed} passed, \${report.failed} failed, \${report.errored} errored\`)
if (report.gates.some(gate => !gate.passed)) process.exitCode = 1
`)
    const run = await sh(process.execPath, ['gate-api.js'], project)
    expect(run.stderr).toBe('')
    expect(run.stdout.trim().split('\n')).toEqual(['reset succeeded pass', 'refund errored the support API answered 503', '1 passed, 0 failed, 1 errored'])
    expect(run.code).toBe(1)
  }, 120_000)

  it('npx judgeflow serve starts the shipped app at once, its database in the working directory', async () => {
    const port = await freePort()
    // A process group of its own: npx does not pass a signal on to judgeflow, so the whole group is stopped at the end.
    const child = spawn('npx', ['--no-install', 'judgeflow', 'serve'], { cwd: project, env: { ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let output = ''
    child.stdout.on('data', (chunk) => { output += chunk })
    child.stderr.on('data', (chunk) => { output += chunk })
    try {
      const health = await waitFor(async () => {
        if (child.exitCode !== null) throw new Error(`judgeflow serve exited with ${child.exitCode}:\n${output}`)
        const response = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null)
        return response?.ok ? response.status : undefined
      }, 30_000, 'judgeflow serve to answer')
      expect(health).toBe(200)
      expect(output).not.toContain('building')
      expect(existsSync(join(project, '.judgeflow/judgeflow.db'))).toBe(true)
      expect(existsSync(join(installed, 'data'))).toBe(false)
      expect(existsSync(join(installed, '.judgeflow'))).toBe(false)

      // The port is taken now: a second serve stops at once, exit 1, one sentence.
      const second = await sh('npx', ['--no-install', 'judgeflow', 'serve'], project, { PORT: String(port) })
      expect(second.code).toBe(1)
      expect(second.stderr.trim()).toBe(`judgeflow: refusing to start: port ${port} on 127.0.0.1 is in use by another process: stop it or set PORT to a free port.`)
    }
    finally {
      const exited = child.exitCode === null && child.signalCode === null ? new Promise(resolve => child.once('exit', resolve)) : undefined
      try {
        process.kill(-child.pid!, 'SIGTERM')
      }
      catch {
        // The group has ended already.
      }
      await exited
    }
  }, 120_000)

  it('npx judgeflow serve with a bad setting or no migrations stops with exit 1 and one sentence', async () => {
    const port = String(await freePort())
    const badSetting = await sh('npx', ['--no-install', 'judgeflow', 'serve'], project, { PORT: port, JUDGEFLOW_EVAL_WORKERS: 'many' })
    expect(badSetting.code).toBe(1)
    expect(badSetting.stderr.trim()).toBe('judgeflow: refusing to start: JUDGEFLOW_EVAL_WORKERS must be a whole number of worker threads (0 runs evaluations on the main thread), not "many".')
    const migrations = join(installed, '.output/server/migrations')
    renameSync(migrations, `${migrations}-away`)
    const noMigrations = await sh('npx', ['--no-install', 'judgeflow', 'serve'], project, { PORT: port, JUDGEFLOW_DB: join(project, 'other.db') })
      .finally(() => renameSync(`${migrations}-away`, migrations))
    expect(noMigrations.code).toBe(1)
    expect(noMigrations.stderr.trim()).toMatch(/^judgeflow: refusing to start: the database migrations were not found/)
    expect(noMigrations.stderr.trim().split('\n')).toHaveLength(1)
  }, 120_000)
})
