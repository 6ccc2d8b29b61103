import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { cli } from '../../support/cli'
import type { DatasetReport } from '../../../engine/datasets'
import { FakeLLM, lastUserText } from '../../support/fake-llm'

/** The grader passes an output that mentions Settings; any request without response_format would be a generation. */
const fake = new FakeLLM()
beforeAll(async () => {
  await fake.start()
})
beforeEach(() => {
  fake.reset()
  fake.onRequest((request) => {
    const output = lastUserText(request).split('<Rubric>')[0]!
    return request.body.response_format ? { json: /settings/i.test(output) ? { reason: 'names the place', pass: true, score: 1 } : { reason: 'vague', pass: false, score: 0 } } : { text: 'generated' }
  })
})
afterAll(async () => {
  await fake.stop()
})

function files() {
  const dir = mkdtempSync(join(tmpdir(), 'judgeflow-model-outputs-'))
  writeFileSync(join(dir, 'asserts.yaml'), '- type: icontains\n  value: password\n- type: not-icontains\n  value: sorry\n')
  writeFileSync(join(dir, 'outputs.json'), JSON.stringify(['Reset your password under Settings.', { output: 'Sorry, I cannot help with passwords.', tags: ['support', 'en'] }]))
  writeFileSync(join(dir, 'promptfooconfig.yaml'), [
    'description: Logged answers',
    'prompts: ["Answer: {{question}}"]',
    'providers: [openai:chat:gpt-4o-mini]',
    'tests:',
    '  - vars: { question: ignored }',
    'defaultTest:',
    '  assert:',
    '    - type: llm-rubric',
    '      value: says where to go',
    '  options:',
    '    provider: openai:gpt-grader',
    '',
  ].join('\n'))
  return dir
}
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as DatasetReport

describe('judgeflow test --assertions --model-outputs (promptfoo\'s standalone assertion mode)', () => {
  // promptfoo 0.123.1 on these two files (`promptfoo eval --assertions asserts.yaml --model-outputs outputs.json`, run by hand):
  // test 1 success, icontains ✓ not-icontains ✓; test 2 failure, icontains ✓ not-icontains ✗, vars.tags "support, en".
  it('each recorded output is a test judged by every assertion, with no generation call; the report says where they came from', async () => {
    const dir = files()
    const outputs = join(dir, 'outputs.json')
    const run = await cli(['test', '--assertions', join(dir, 'asserts.yaml'), '--model-outputs', outputs, '--min-pass-rate', '0', '--report', join(dir, 'r.json')], fake.env())
    expect(run.code).toBe(0)
    expect(run.out).toContain('promptfoo: 1 passed, 1 failed, 0 errored of 2 cases')
    expect(run.out).toContain(`Outputs recorded, not generated: read from ${outputs}, judged as the content; no generation call was made.`)
    const report = read(join(dir, 'r.json'))
    expect(report.recorded_outputs).toEqual({ from: outputs, step: null })
    expect(report.results.map(r => [r.case_id, r.verdict, r.output])).toEqual([
      ['test-1', 'pass', 'Reset your password under Settings.'],
      ['test-2', 'fail', 'Sorry, I cannot help with passwords.'],
    ])
    expect(report.results[1]!.checks!.map(c => [c.name, c.passed])).toEqual([['icontains', true], ['not-icontains', false]])
    expect(fake.requests).toHaveLength(0)
  })

  it('with a promptfoo config: its prompts, providers and tests are set aside, its defaultTest (assertions, grader) kept', async () => {
    const dir = files()
    const run = await cli(['test', join(dir, 'promptfooconfig.yaml'), '--assertions', join(dir, 'asserts.yaml'), '--model-outputs', join(dir, 'outputs.json'), '--min-pass-rate', '0', '--report', join(dir, 'r.json')], fake.env())
    expect(run.code).toBe(0)
    const report = read(join(dir, 'r.json'))
    expect(report.dataset.name).toBe('Logged answers')
    expect(report.results.map(r => r.checks!.map(c => [c.name, c.passed]))).toEqual([
      [['llm-rubric', true], ['icontains', true], ['not-icontains', true]],
      [['llm-rubric', false], ['icontains', true], ['not-icontains', false]],
    ])
    // Only the grader was asked, twice; nothing generated.
    expect(fake.requests.map(r => [r.body.model, Boolean(r.body.response_format)])).toEqual([['gpt-grader', true], ['gpt-grader', true]])
  })

  it('refuses what promptfoo would ignore or misread, naming the flag, file and item', async () => {
    const dir = files()
    const asserts = join(dir, 'asserts.yaml')
    const outputs = join(dir, 'outputs.json')
    expect(await cli(['test', '--model-outputs', outputs], fake.env())).toMatchObject({
      code: 2, err: '--model-outputs is read with --assertions <file>, as promptfoo reads it (promptfoo ignores it alone); to judge recorded outputs of a dataset\'s cases, give --outputs <file.jsonl>.',
    })
    expect(await cli(['test', '--assertions', asserts], fake.env())).toMatchObject({ code: 2, err: '--assertions needs --model-outputs <outputs.json>: the outputs its assertions judge, as promptfoo takes them.' })
    writeFileSync(join(dir, 'odd.json'), JSON.stringify(['fine', { output: 'x', score: 1 }]))
    expect(await cli(['test', '--assertions', asserts, '--model-outputs', join(dir, 'odd.json')], fake.env())).toMatchObject({
      code: 2, err: `the --model-outputs file "${join(dir, 'odd.json')}", item 2: unknown key(s) score; promptfoo reads "output" and "tags" only.`,
    })
    writeFileSync(join(dir, 'one.yaml'), 'type: contains\nvalue: x\n')
    expect(await cli(['test', '--assertions', join(dir, 'one.yaml'), '--model-outputs', outputs], fake.env())).toMatchObject({
      code: 2, err: `the --assertions file "${join(dir, 'one.yaml')}" must be a list of assertion objects (each with a type), as promptfoo reads it.`,
    })
    expect((await cli(['test', '--assertions', asserts, '--model-outputs', outputs, '--dataset', outputs], fake.env())).err).toContain('--assertions and --model-outputs judge promptfoo\'s recorded outputs alone')
    expect(fake.requests).toHaveLength(0)
  })
})
