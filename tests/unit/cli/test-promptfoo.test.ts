import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cli } from '../../support/cli'
import type { DatasetReport } from '../../../engine/datasets'
import { FakeLLM, lastUserText } from '../../support/fake-llm'

/** The generation answers what follows "ECHO:" in its prompt, one model in upper case; the grader passes a rubric that says "pass". */
const fake = new FakeLLM()
beforeAll(async () => {
  await fake.start()
  fake.onRequest((request) => {
    const text = lastUserText(request)
    if (text.includes('<Text index="0">')) return { text: '1' }
    if (request.body.response_format) return { json: /<Rubric>[^<]*pass/.test(text) ? { reason: 'meets it', pass: true, score: 0.9 } : { reason: 'misses it', pass: false, score: 0.1 } }
    const echoed = text.split('ECHO:').at(-1)!.trim()
    return { text: request.body.model === 'gpt-loud' ? echoed.toUpperCase() : echoed }
  })
})
afterAll(async () => {
  await fake.stop()
})

const config = `description: Grid
prompts:
  - "Say it. ECHO:{{answer}}"
providers:
  - openai:chat:gpt-quiet
  - openai:chat:gpt-loud
defaultTest:
  assert:
    - type: javascript
      value: output.length <= context.vars.limit
tests:
  - description: greeting
    vars: { answer: hello there, limit: 20 }
    assert:
      - { type: contains, value: hello }
      - { type: llm-rubric, value: a greeting that should pass }
  - description: json
    vars: { answer: '{"ok": 1}', limit: 20 }
    assert:
      - { type: is-json }
      - { type: not-icontains, value: error }
  - description: too long
    vars: { answer: '{"ok": 1}', limit: 5 }
    assert:
      - { type: is-json }
      - { type: not-icontains, value: error }
`

describe('judgeflow test <promptfooconfig.yaml>', () => {
  it('runs the config directly: one result per test × provider, code in the sandbox, the grader given by --grader', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-pf-test-'))
    writeFileSync(join(dir, 'promptfooconfig.yaml'), config)
    // Without --grader, each provider grades its own cells, and the command says so.
    const byProvider = await cli(['test', join(dir, 'promptfooconfig.yaml')], fake.env())
    expect(byProvider.err).toContain('Note: no grader is named, so each prompt × provider\'s own model grades its model-graded assertions')
    expect(fake.requests.filter(r => r.body.response_format).map(r => r.body.model).sort()).toEqual(['gpt-loud', 'gpt-quiet'])
    fake.requests.length = 0

    // promptfoo's spelling of the grader (openai:chat:…) names the same model: the API is sent gpt-grader.
    const run = await cli(['test', join(dir, 'promptfooconfig.yaml'), '--grader', 'openai:chat:gpt-grader', '--report', join(dir, 'report.json')], fake.env())
    expect(run.out).toContain('Grid: 3 passed, 3 failed, 0 errored of 6 cases')
    expect(run.code).toBe(1)
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as DatasetReport
    expect(Object.fromEntries(report.results.map(r => [r.case_id, r.verdict]))).toEqual({
      'greeting · prompt 1 · openai:gpt-quiet': 'pass',
      // "HELLO THERE" has no "hello": this provider's failure stays its own.
      'greeting · prompt 1 · openai:gpt-loud': 'fail',
      'json · prompt 1 · openai:gpt-quiet': 'pass',
      'json · prompt 1 · openai:gpt-loud': 'pass',
      // The javascript assertion (context.vars.limit) fails both.
      'too long · prompt 1 · openai:gpt-quiet': 'fail',
      'too long · prompt 1 · openai:gpt-loud': 'fail',
    })
    expect(report.by_tag['test:greeting']).toMatchObject({ cases: 2, passed: 1 })
    // Each row carries the output it was judged on and each assertion's verdict and reason.
    const loud = report.results.find(r => r.case_id === 'greeting · prompt 1 · openai:gpt-loud')!
    expect(loud.output).toBe('HELLO THERE')
    expect(loud.checks).toContainEqual({ name: 'contains', passed: false, score: 0, reason: 'Expected output to contain "hello"' })
    expect(run.out).toContain('failed greeting · prompt 1 · openai:gpt-loud: contains: Expected output to contain "hello"')
    // One grader call per rubric per cell, beside the four generations.
    expect(fake.requests.filter(r => r.body.model === 'gpt-grader')).toHaveLength(2)
  })

  it('decides select-best over every cell of a test once they all ran, in a comparison run of its own, and merges its verdict as promptfoo does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-pf-test-'))
    writeFileSync(join(dir, 'promptfooconfig.yaml'), `description: Best
prompts:
  - "Plain. ECHO:{{answer}}"
providers:
  - openai:chat:gpt-quiet
  - openai:chat:gpt-loud
  - id: openai:chat:gpt-quiet
    label: starred
    transform: "'*' + output + '*'"
tests:
  - description: pick
    vars: { answer: the bridge is open }
    assert:
      - { type: select-best, value: the loudest answer }
      - { type: icontains, value: bridge }
  - description: pick but short
    vars: { answer: the bridge is open }
    assert:
      - { type: select-best, value: the loudest answer of all }
      - { type: javascript, value: output.length < 5 }
`)
    fake.requests.length = 0
    const db = join(dir, 'judgeflow.db')
    const run = await cli(['test', join(dir, 'promptfooconfig.yaml'), '--grader', 'openai:gpt-grader', '--report', join(dir, 'report.json'), '--db', db], fake.env())
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as DatasetReport
    // The grader saw every output of the test, the provider's transform applied, numbered in the grid's order; it picked 1 (the loud one).
    const compared = fake.requests.filter(r => r.body.model === 'gpt-grader').map(r => lastUserText(r))
    expect(compared).toHaveLength(2)
    expect(compared[0]).toMatch(/<Text index="0">\nthe bridge is open\n<\/Text>[\s\S]*<Text index="1">\nTHE BRIDGE IS OPEN\n<\/Text>[\s\S]*<Text index="2">\n\*the bridge is open\*\n<\/Text>/)
    expect(Object.fromEntries(report.results.map(r => [r.case_id, [r.verdict, r.score]]))).toEqual({
      'pick · prompt 1 · openai:gpt-quiet': ['fail', 0],
      'pick · prompt 1 · openai:gpt-loud': ['pass', 1],
      'pick · prompt 1 · starred': ['fail', 0],
      // Selected, but its own javascript check failed: it fails, with the score of its own checks.
      'pick but short · prompt 1 · openai:gpt-quiet': ['fail', 0],
      'pick but short · prompt 1 · openai:gpt-loud': ['fail', 0],
      'pick but short · prompt 1 · starred': ['fail', 0],
    })
    const loud = report.results.find(r => r.case_id === 'pick · prompt 1 · openai:gpt-loud')!
    expect(loud.checks).toEqual([
      { name: 'icontains', passed: true, score: 1, reason: 'Assertion passed' },
      { name: 'select-best', passed: true, score: 1, reason: expect.stringMatching(/^Output selected as the best: the loudest answer \(compared in run [0-9a-f-]{36}\)$/) },
    ])
    expect(report.results.every(r => !('awaiting_comparison' in r))).toBe(true)
    expect(run.out).toContain('Best: 1 passed, 5 failed, 0 errored of 6 cases')
    // The comparison is a run like any other, kept with its input (the candidates) and its grades.
    const runId = /compared in run ([0-9a-f-]{36})/.exec(loud.checks!.at(-1)!.reason!)![1]!
    const sqlite = new Database(db, { readonly: true })
    const row = sqlite.prepare('select status, input from runs where id = ?').get(runId) as { status: string, input: string }
    sqlite.close()
    expect(row.status).toBe('succeeded')
    expect(JSON.parse(row.input)).toEqual({ candidates: [
      { id: 'pick · prompt 1 · openai:gpt-quiet', text: 'the bridge is open' },
      { id: 'pick · prompt 1 · openai:gpt-loud', text: 'THE BRIDGE IS OPEN' },
      { id: 'pick · prompt 1 · starred', text: '*the bridge is open*' },
    ] })
  })

  it('calls the providers at the endpoint their config names (apiBaseUrl), whatever OPENAI_BASE_URL says', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-pf-test-'))
    writeFileSync(join(dir, 'promptfooconfig.yaml'), `prompts: ["Say it. ECHO:{{answer}}"]
providers:
  - id: openai:chat:gpt-quiet
    config: { apiBaseUrl: "${fake.env().OPENAI_BASE_URL}" }
tests:
  - vars: { answer: hello }
    assert: [{ type: contains, value: hello }]
`)
    fake.requests.length = 0
    const run = await cli(['test', join(dir, 'promptfooconfig.yaml')], { ...fake.env(), OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' })
    expect(run.out).toContain('1 passed, 0 failed, 0 errored of 1 cases')
    expect(fake.requests).toHaveLength(1)
  })

  it('refuses a config without prompts or providers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-pf-test-'))
    writeFileSync(join(dir, 'tests-only.yaml'), 'tests:\n  - vars: { a: 1 }\n    assert: [{ type: contains, value: x }]\n')
    expect(await cli(['test', join(dir, 'tests-only.yaml')])).toMatchObject({ code: 2, err: expect.stringContaining('needs prompts and providers to run') })
  })
})
