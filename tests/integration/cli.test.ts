import { execFile, execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FakeLLM } from '../support/fake-llm'
import { tempDbPath } from '../support/app-server'
import { qualityGate } from '../support/workflows'
import { snoopingPython } from '../support/snoop'

const root = resolve(import.meta.dirname, '../..')
const dir = mkdtempSync(join(tmpdir(), 'judgeflow-cli-'))
const fake = new FakeLLM()
beforeAll(async () => { await fake.start() })
afterAll(async () => { await fake.stop() })

function file(name: string, content: unknown): string {
  const path = join(dir, name)
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content))
  return path
}

/** Runs the `judgeflow` bin from the repo root (or `cwd`); `viaNpx` goes through `npx judgeflow` exactly as a user types it. */
function judgeflow(args: string[], env: Record<string, string> = {}, viaNpx = false, cwd = root): Promise<{ code: number, stdout: string, stderr: string }> {
  const [command, prefix] = viaNpx ? ['npx', ['--no-install', 'judgeflow']] : [process.execPath, [join(root, 'bin/judgeflow.mjs')]]
  return new Promise((done) => {
    execFile(command, [...prefix, ...args], { cwd, env: { PATH: process.env.PATH!, HOME: process.env.HOME!, JUDGEFLOW_LLM_RETRY_BASE_MS: '5', ...env } }, (error, stdout, stderr) => {
      done({ code: error ? (error as { code?: number }).code ?? 1 : 0, stdout, stderr: stderr.split('\n').filter(l => l && !l.startsWith('npm warn')).join('\n') })
    })
  })
}

describe('npx judgeflow', () => {
  it('validate: exit 0 for a valid workflow', async () => {
    const result = await judgeflow(['validate', file('ok.json', qualityGate(['a'], [true]))], {}, true)
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual({ valid: true, problems: [], warnings: [] })
  })

  it('validate: every problem with node ids, exit 2', async () => {
    const result = await judgeflow(['validate', file('bad.json', { name: 'x', nodes: [{ id: 'a', type: 'llm', config: { prompt: 'p' } }, { id: 'b', type: 'magic' }], edges: [{ from: 'a', to: 'zz' }] })])
    expect(result.code).toBe(2)
    const { problems } = JSON.parse(result.stdout)
    expect(problems.map((p: { node: string }) => p.node)).toEqual(['a', 'b', 'a'])
    expect(result.stderr).toContain('node "b": unknown step type "magic"')
  })

  it('validate: an unknown key at any depth is a problem naming its path and the nearest key, exit 2', async () => {
    const typos = {
      name: 'typos',
      nodes: [
        { id: 'in', type: 'input' },
        { id: 'judge', type: 'evaluator', config: { evaluation_type: 'scorers', content: '{{input.a}}', expected: 'a', scorers: [{ type: 'exact-match', treshold: 0.9 }] } },
        { id: 'out', type: 'output', config: { verdikt: 'fail' } },
      ],
      edges: [{ from: 'in', to: 'judge' }, { from: 'judge', to: 'out' }],
    }
    const result = await judgeflow(['validate', file('typos.json', typos)])
    expect(result.code).toBe(2)
    expect(JSON.parse(result.stdout).problems.map((p: { path: string }) => p.path)).toEqual(['nodes.judge.config.scorers[0].treshold', 'nodes.out.config.verdikt'])
    expect(result.stderr).toContain('node "judge": nodes.judge.config.scorers[0]: unknown key "treshold": did you mean "threshold"?')
    expect(result.stderr).toContain('node "out": nodes.out.config: unknown key "verdikt": did you mean "verdict"?')
  })

  it('run: prints the run as JSON; exit 0 on pass, 1 on a fail verdict', async () => {
    const pass = await judgeflow(['run', file('pass.json', qualityGate(['x', 'y'], [false, true])), '--input-json', '{"question":"q"}'], {}, true)
    expect(pass.code).toBe(0)
    const run = JSON.parse(pass.stdout)
    expect(run).toMatchObject({ status: 'succeeded', verdict: 'pass', output: 'y', steps: { draft: { status: 'succeeded', attempts: 2, error: null } } })
    expect(run.id).toMatch(/^[0-9a-f-]{36}$/)
    const fail = await judgeflow(['run', file('fail.json', qualityGate(['x'], [false])), '--input', file('input.json', { question: 'q' })])
    expect(fail.code).toBe(1)
    expect(JSON.parse(fail.stdout).verdict).toBe('fail')
  })

  it('run: exit 2 with one sentence for bad input, a missing key, a missing file or bad JSON', async () => {
    const gate = file('gate.json', qualityGate(['x'], [true]))
    const noInput = await judgeflow(['run', gate])
    expect([noInput.code, noInput.stderr]).toEqual([2, 'input "question" is required (node "in")'])
    const badJson = await judgeflow(['run', gate, '--input-json', '{oops'])
    expect(badJson.code).toBe(2)
    expect(badJson.stderr).toMatch(/^--input-json is not valid JSON: /)
    const missing = await judgeflow(['run', join(dir, 'nope.json')])
    expect(missing.stderr).toBe(`Cannot read the workflow file "${join(dir, 'nope.json')}": it does not exist.`)
    const live = file('live.json', { name: 'live', nodes: [{ id: 'ask', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'hi' } }] })
    const noKey = await judgeflow(['run', live])
    expect([noKey.code, noKey.stderr]).toEqual([2, 'OPENAI_API_KEY is not set: node "ask" uses openai:gpt-4o-mini. Set it in the environment, or pin this step\'s output to run offline.'])
  })

  it('refuses JSON with a __proto__ key or nested too deep, naming the file or option and where', async () => {
    const proto = file('proto.json', '{"name":"x","nodes":[{"id":"a","type":"input","config":{"__proto__":{}}}]}')
    const refused = await judgeflow(['validate', proto])
    expect([refused.code, refused.stderr]).toEqual([2, `The workflow file "${proto}" is refused: "__proto__" is not allowed as a key (at nodes[0].config).`])
    const deep = await judgeflow(['run', file('gate2.json', qualityGate(['x'], [true])), '--input-json', `{"question":${'['.repeat(5000)}${']'.repeat(5000)}}`])
    expect([deep.code, deep.stderr]).toEqual([2, `--input-json nests objects and arrays more than 64 levels deep (at question${'[0]'.repeat(63)}): flatten it, or raise JUDGEFLOW_MAX_JSON_DEPTH (at most 1000).`])
  })

  it('run: calls the provider and keeps the run with --db', async () => {
    fake.script({ text: 'real answer' })
    const db = tempDbPath()
    const live = file('live2.json', { name: 'live', nodes: [{ id: 'ask', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'hi' } }, { id: 'out', type: 'output', config: { value: '{{steps.ask.text}}' } }], edges: [{ from: 'ask', to: 'out' }] })
    const result = await judgeflow(['run', live, '--db', db], fake.env())
    expect(result.code).toBe(0)
    const run = JSON.parse(result.stdout)
    expect(run.output).toBe('real answer')
    const sqlite = new Database(db, { readonly: true })
    expect(sqlite.prepare('select status from runs where id = ?').get(run.id)).toEqual({ status: 'succeeded' })
    expect(sqlite.prepare('select count(*) as n from step_runs where run_id = ?').get(run.id)).toEqual({ n: 2 })
    sqlite.close()
  })

  it('run: a provider failure is exit 2 with the provider message', async () => {
    fake.onRequest(() => ({ status: 400 }))
    const live = file('live3.json', { name: 'live', nodes: [{ id: 'ask', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'hi' } }] })
    const result = await judgeflow(['run', live], fake.env())
    expect(result.code).toBe(2)
    expect(JSON.parse(result.stdout).steps.ask.status).toBe('failed')
    expect(result.stderr).toContain('openai:gpt-4o-mini answered HTTP 400')
  })

  it('eval: the evaluator result as JSON; exit 0 passed, 1 not passed, 2 invalid', async () => {
    const question = { user_query: 'How do I reset my password?' }
    const config = file('judge.json', { evaluation_type: 'criteria', model: 'local:heuristic', criteria: [{ name: 'relevance', weight: 0.6 }, { name: 'completeness', weight: 0.4 }], pass_threshold: 0.6 })
    const good = await judgeflow(['eval', '--config', config, '--input', file('good.json', { ...question, submission: 'Open Settings, choose "Forgot password", enter your email and follow the link to reset your password.' })], {}, true)
    expect(good.code).toBe(0)
    expect(JSON.parse(good.stdout)).toMatchObject({ passed: true, judge: { model: 'local:heuristic' } })
    const bad = await judgeflow(['eval', '--config', config, '--input', file('bad.json', { ...question, submission: 'The weather is nice in Lisbon.' })])
    expect(bad.code).toBe(1)
    expect(JSON.parse(bad.stdout).passed).toBe(false)
    const invalid = await judgeflow(['eval', '--config', file('w.json', { evaluation_type: 'criteria', criteria: [{ name: 'a', weight: 2 }] }), '--input', file('i.json', { content: 'x' })])
    expect([invalid.code, invalid.stderr]).toEqual([2, 'Invalid evaluator config: criteria[0].weight: must be at most 1.'])
    const empty = await judgeflow(['eval', '--config', config, '--input', file('e.json', { submission: '  ' })])
    expect([empty.code, empty.stderr]).toEqual([2, 'The content to evaluate is empty: give a non-empty content.'])
  })

  it('eval: a metric suite in TOML, with a judge behind the fake LLM server', async () => {
    fake.reset()
    fake.onRequest(() => ({ json: { score: 75, evaluator_comment: 'fine' } }))
    const toml = file('suite.toml', '[llm_default]\nmodel = "openai:gpt-4o-mini"\n\n[[metrics]]\nname = "Relevance"\nweight = 0.5\n\n[[metrics]]\nname = "Coverage"\nweight = 0.5\n')
    const result = await judgeflow(['eval', '--config', toml, '--input', file('m.json', { user_query: 'q?', submission: 'an answer' })], fake.env())
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout).evaluation_result).toEqual({ metrics: [{ metric_name: 'Relevance', score: 75, evaluator_comment: 'fine' }, { metric_name: 'Coverage', score: 75, evaluator_comment: 'fine' }], overall_score: 75 })
    expect(fake.requests).toHaveLength(2)
  })

  it('eval: the example suite runs offline because it names local:heuristic', async () => {
    const result = await judgeflow(['eval', '--config', 'examples/evaluator.toml', '--input', 'examples/eval-input.json'])
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({ passed: true, judge: { model: 'local:heuristic', heuristic: true, calls: 0 }, metric_weights: { Relevance: 0.5, ClarityCoherence: 0.3, Coverage: 0.2 } })
  })

  it('eval: without --config, the workspace\'s configs/evaluator.toml, and it says so', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'judgeflow-workspace-'))
    const input = join(workspace, 'input.json')
    copyFileSync(join(root, 'examples/eval-input.json'), input)
    const none = await judgeflow(['eval', '--input', input], {}, false, workspace)
    expect([none.code, none.stderr]).toEqual([2, 'eval needs a config (there is no configs/evaluator.toml): judgeflow eval [--config <file.json|file.toml>] --input <file.json>'])
    mkdirSync(join(workspace, 'configs'))
    writeFileSync(join(workspace, 'configs/evaluator.toml'), 'pass_threshold = 0.5\n[llm_default]\nmodel = "local:heuristic"\n[[metrics]]\nname = "Relevance"\n')
    const result = await judgeflow(['eval', '--input', input], {}, false, workspace)
    expect([result.code, result.stderr]).toEqual([0, 'Using the config configs/evaluator.toml.'])
    expect(JSON.parse(result.stdout)).toMatchObject({ passed: true, pass_threshold: 0.5, metrics: [{ metric_name: 'Relevance' }] })
  })

  it('eval: a suite without a model needs ANTHROPIC_API_KEY and says what to change, never to pin a step', async () => {
    const result = await judgeflow(['eval', '--config', file('bare.toml', '[[metrics]]\nname = "Relevance"\n'), '--input', 'examples/eval-input.json'], { OPENAI_API_KEY: 'sk-not-used' })
    expect([result.code, result.stderr]).toEqual([2, 'ANTHROPIC_API_KEY is not set: metric "Relevance" uses anthropic:claude-sonnet-4-5-20250929. It is the metric suite\'s built-in default model: set the key in the environment, or name a model in [llm_default] (model = "local:heuristic" judges offline).'])
    const typo = await judgeflow(['eval', '--config', file('typo.toml', '[llm_default]\nmodel = "local:heuristic"\ntemprature = 0.2\n'), '--input', 'examples/eval-input.json'])
    expect([typo.code, typo.stderr]).toEqual([2, 'Invalid evaluator config: llm_default: unknown key "temprature" in [llm_default]: did you mean "temperature"?'])
  })

  it('eval: scorers and traces need no key and no network', async () => {
    const input = JSON.parse(readFileSync(join(root, 'examples/edit-gate-input.json'), 'utf8'))
    const failing = await judgeflow(['eval', '--config', file('strict.json', { evaluation_type: 'scorers', preset: 'strict' }), '--input', file('edit.json', { ...input, actual: { operations: [{ type: 'update', targetBlockId: 'b2' }] } })])
    expect(failing.code).toBe(1)
    expect(JSON.parse(failing.stdout).scorer_results.map((r: { passed: boolean }) => r.passed)).toEqual([false, false, false, false])
  })
})

describe('judgeflow experiment report', () => {
  it('computes the report of the example judgments: JSON (exit 0) and a Markdown table', async () => {
    const json = await judgeflow(['experiment', 'report', 'examples/experiment-judgments.json'], {}, true)
    expect(json.code).toBe(0)
    const report = JSON.parse(json.stdout)
    expect(report.variants.v1).toMatchObject({ overall_mean: 2.5, overall_sd: 0.7071 })
    expect(report.comparisons[0]).toMatchObject({ variant: 'v2', adjusted_diff: 0.9375, decision: 'current_best' })
    expect(report.recommendation.adopt).toBe('v1')
    const markdown = await judgeflow(['experiment', 'report', 'examples/experiment-judgments.json', '--markdown'])
    expect(markdown.code).toBe(0)
    expect(markdown.stdout).toContain('**Recommendation: keep the current best (v1).**')
    expect(markdown.stdout).toContain('| adjacent | 0.5 | **0.125** (regression) |')
  })

  it('exit 2 with the bad field named', async () => {
    const broken = JSON.parse(readFileSync(join(root, 'examples/experiment-judgments.json'), 'utf8'))
    broken.judgments[0].problems.A1 = 'maybe'
    const result = await judgeflow(['experiment', 'report', file('bad-judgments.json', broken)])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('judgments[0].problems.A1.mark: "maybe" is not a mark')
    expect((await judgeflow(['experiment', 'summarize'])).code).toBe(2)
  })
})

describe('judgeflow experiment run', () => {
  it('runs a round end to end through the real SDK against the fake server, judges it, and reports', async () => {
    fake.reset()
    fake.onRequest((request) => {
      const text = request.body.messages.map((m: { content: string }) => m.content).join('\n')
      if (request.body.response_format?.json_schema?.name === 'review_judgment') {
        const careful = text.includes('CAREFUL REVIEW')
        const ids = [...text.matchAll(/^- (P\d) \[/gm)].map(m => m[1]!)
        return { json: { problems: ids.map(id => ({ id, mark: careful ? '○' : '×', reason: careful ? 'found' : 'missed' })), bonuses: [], penalties: [] } }
      }
      return { text: text.includes('Careful') ? 'CAREFUL REVIEW: both risks.' : 'Fine.' }
    })
    file('reviewer.json', { name: 'Reviewer', nodes: [{ id: 'in', type: 'input' }, { id: 'review', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Review: {{input.document}}' } }], edges: [{ from: 'in', to: 'review' }] })
    const experiment = file('experiment.json', {
      name: 'cli round', target: { workflow_file: 'reviewer.json', node: 'review' }, judge_model: 'openai:gpt-4o-mini', current_best: 'a',
      variants: [{ id: 'a' }, { id: 'b', config: { prompt: 'Careful review: {{input.document}}' } }],
      documents: [{ id: 'd1', text: 'one', problems: [{ id: 'P1', category: 'main' }] }, { id: 'd2', text: 'two', problems: [{ id: 'P2', category: 'main' }] }],
    })
    const result = await judgeflow(['experiment', 'run', experiment, '--judgments', join(dir, 'round.json')], fake.env())
    expect(result.stderr).toContain('judged 8/8')
    expect(result.code).toBe(0)
    const report = JSON.parse(result.stdout)
    expect(report.variants.a.overall_mean).toBe(0)
    expect(report.variants.b.overall_mean).toBe(1)
    // exactly 1.0 falls in the 0.5–1.0 band; equal SDs (0 and 0) keep the current best
    expect(report.recommendation).toMatchObject({ adopt: 'a', changes_best: false })
    expect(report.comparisons[0]).toMatchObject({ raw_mean_diff: 1, decision: 'current_best' })
    expect(report.comparisons[0].reason).toContain('0.5–1.0')
    // The saved judgments give the same report through `experiment report`.
    const again = await judgeflow(['experiment', 'report', join(dir, 'round.json')])
    expect(JSON.parse(again.stdout).comparisons).toEqual(report.comparisons)
  })
})

describe('judgeflow test: the suite\'s own code', () => {
  // A promptfoo suite whose python assertion looks for the CLI's secrets and the network.
  const snooping = (port: number) => `description: Snoop
prompts:
  - "Say {{word}}"
providers:
  - openai:chat:gpt-4o-mini
tests:
  - vars: { word: hi }
    assert:
      - type: python
        value: |
${snoopingPython({ port }).split('\n').map(line => `          ${line}`).join('\n')}
`
  const secrets = { JUDGEFLOW_TOKEN: 'cli-sandbox-token-'.padEnd(40, 'x'), OPENAI_API_KEY: 'sk-cli-sandbox-key-7f3a' }

  it('runs in a sandbox: the report holds none of the CLI\'s secrets, and the code reaches no port', async () => {
    let connections = 0
    const listener = createServer((socket) => {
      connections++
      socket.end()
    })
    await new Promise<void>(done => listener.listen(0, '127.0.0.1', done))
    const { port } = listener.address() as { port: number }
    try {
      const config = file('snoop.yaml', snooping(port))
      const report = join(dir, 'snoop-report.json')
      const result = await judgeflow(['test', config, '--report', report], { ...fake.env(), ...secrets })
      expect(result.stderr).not.toContain('without a sandbox')
      const text = readFileSync(report, 'utf8')
      expect(text).toContain('ConnectionRefusedError')
      for (const secret of Object.values(secrets)) expect(text).not.toContain(secret)
      expect(connections).toBe(0)
    }
    finally {
      listener.close()
    }
  })

  it('says what it cannot isolate before anything runs, where bubblewrap is missing', async () => {
    // A PATH with python3 (the interpreter itself) and no bwrap.
    const bin = mkdtempSync(join(tmpdir(), 'judgeflow-no-bwrap-'))
    const python = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim()
    symlinkSync(python, join(bin, 'python3'))
    const config = file('snoop-bare.yaml', snooping(9))
    const result = await judgeflow(['test', config], { ...fake.env(), PATH: bin })
    expect(result.stderr).toMatch(/^Note: the javascript and python assertions, transforms and code steps here run without a sandbox — with an empty environment and their time and memory limits, but able to read your files and reach the network — because bubblewrap \(bwrap\), which isolates user code, is not installed: install bubblewrap/m)
    // And the code ran, as promptfoo would run it.
    expect(result.code).toBe(0)
  })
})
