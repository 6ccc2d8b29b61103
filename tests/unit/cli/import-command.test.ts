import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cli } from '../../support/cli'
import type { DatasetReport } from '../../../engine/datasets'
import { FakeLLM, lastUserText } from '../../support/fake-llm'

const example = join(import.meta.dirname, '../../../examples/promptfoo/promptfooconfig.yaml')

/** The support agent's answers, by a word of the question; the Canada answer misses its check. */
const answers: Record<string, string> = {
  'refund': 'Hello! You have 30 days from delivery to ask Acme for a refund.',
  'password': 'Hi, open Settings and choose Reset password; Acme emails you a link.',
  'A-1001': 'Order A-1001 shipped yesterday and arrives on Friday.',
  'anyone': 'Hello, yes: Acme support is here to help you.',
  'cheapest': 'Acme Starter',
  'invoice': 'Your invoices are on the Billing page of your Acme account.',
  'Canada': 'We do not ship outside the United States yet.',
}

const fake = new FakeLLM()
beforeAll(async () => {
  await fake.start()
  fake.onRequest((request) => {
    const text = lastUserText(request)
    // The rubric's grader (structured output, promptfoo's answer) finds the refund answer impolite; the agent answers by the question.
    if (request.body.response_format) return { json: text.includes('refund') ? { reason: 'curt', pass: false, score: 0.2 } : { reason: 'polite', pass: true, score: 0.9 } }
    const key = Object.keys(answers).find(word => text.includes(word))
    return { text: key ? answers[key]! : 'I do not know.' }
  })
})
afterAll(async () => {
  await fake.stop()
})

function verdicts(reportPath: string): Record<string, string | null | undefined> {
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as DatasetReport
  return Object.fromEntries(report.results.map(r => [r.case_id, r.verdict]))
}

describe('judgeflow import promptfoo', () => {
  it('imports the example (tests inline and from its CSV file), and judgeflow test runs the result', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-promptfoo-'))
    // Its rubric needs a grader: the config names none, so the provider under test grades, and the import says so.
    const ungraded = await cli(['import', 'promptfoo', example, '--out', dir])
    expect(ungraded.code).toBe(0)
    expect(ungraded.out).toContain('Note: no grader is named, so each prompt × provider\'s own model grades its model-graded assertions')
    const imported = await cli(['import', 'promptfoo', example, '--out', dir, '--judge', 'local:heuristic'])
    expect(imported.code).toBe(0)
    expect(imported.out).toContain('7 tests imported as "Acme support answers", judged by assertions (7 cases).')
    expect(imported.out).toContain('Each case keeps its own assertions, graded as promptfoo grades them; model-graded ones by local:heuristic (offline, by word overlap, not as a model would).')
    expect(imported.out).toContain(`Run it: judgeflow test ${join(dir, 'workflow.json')} --dataset ${join(dir, 'dataset.json')}`)
    expect(existsSync(join(dir, 'evaluator.json'))).toBe(false)

    // The LLM step through the OpenAI SDK against the fake server; the rubric judged offline.
    const offline = await cli(['test', join(dir, 'workflow.json'), '--dataset', join(dir, 'dataset.json'), '--report', join(dir, 'offline.json')], fake.env())
    expect(offline.out).toContain('Acme support answers: 6 passed, 1 failed, 0 errored of 7 cases')
    // A failed case fails the command, as in promptfoo.
    expect(offline.code).toBe(1)
    expect(verdicts(join(dir, 'offline.json'))).toEqual({
      'refund window': 'pass', 'password reset': 'pass', 'order status': 'pass', 'greeting': 'pass', 'exact plan name': 'pass', 'invoice download': 'pass', 'shipping to Canada': 'fail',
    })
    const calls = fake.requests.length
    expect(calls).toBe(7)

    // With a model as the rubric's judge, through the SDK too: the refund answer now fails the rubric.
    const judged = mkdtempSync(join(tmpdir(), 'judgeflow-promptfoo-'))
    expect((await cli(['import', 'promptfoo', example, '--out', judged, '--judge', 'openai:gpt-4o-mini'])).code).toBe(0)
    const withJudge = await cli(['test', join(judged, 'workflow.json'), '--dataset', join(judged, 'dataset.json'), '--report', join(judged, 'r.json'), '--min-pass-rate', '0.9'], fake.env())
    expect(withJudge.out).toContain('Acme support answers: 5 passed, 2 failed, 0 errored of 7 cases')
    expect(withJudge.code).toBe(1)
    expect(verdicts(join(judged, 'r.json'))).toMatchObject({ 'refund window': 'fail', 'shipping to Canada': 'fail', 'greeting': 'pass' })
    expect(fake.requests.length - calls).toBe(14)
  })

  it('exits 2 with one sentence for a missing argument or a config it cannot import', async () => {
    expect(await cli(['import', 'promptfoo', example])).toMatchObject({ code: 2, err: expect.stringContaining('import needs --out <folder> as in: judgeflow import promptfoo') })
    expect(await cli(['import', 'deepeval', example, '--out', 'x'])).toMatchObject({ code: 2, err: expect.stringContaining('import needs the source (promptfoo)') })
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-promptfoo-'))
    writeFileSync(join(dir, 'bad.yaml'), 'prompts: [hi]\nproviders: [openai:gpt-4o-mini]\ntests: file://missing.csv\n')
    expect(await cli(['import', 'promptfoo', join(dir, 'bad.yaml'), '--out', dir])).toMatchObject({ code: 2, err: `Cannot read the promptfoo file "${join(dir, 'missing.csv')}": it does not exist.` })
  })

  it('reads JSONL tests files with the datasets\' checked parser: __proto__ is refused and a bad line named, with exit 2 and nothing written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-promptfoo-'))
    writeFileSync(join(dir, 'proto.jsonl'), '{"vars":{"q":"a"}}\n{"vars":{"q":"b"},"__proto__":{"polluted":true}}\n')
    writeFileSync(join(dir, 'nested-proto.jsonl'), '{"vars":{"q":"a","__proto__":{"polluted":true}}}\n')
    writeFileSync(join(dir, 'broken.jsonl'), '{"vars":{"q":"a"}}\n\n{"vars":{"q":\n')
    const cases = [
      ['proto.jsonl', 'the tests file "proto.jsonl", line 2 is refused: "__proto__" is not allowed as a key (at (top level)).'],
      ['nested-proto.jsonl', 'the tests file "nested-proto.jsonl", line 1 is refused: "__proto__" is not allowed as a key (at vars).'],
      ['broken.jsonl', /^the tests file "broken\.jsonl", line 3 is not valid JSON: .+\.$/],
    ] as const
    for (const [file, message] of cases) {
      writeFileSync(join(dir, 'config.yaml'), `prompts: ["{{q}}"]\nproviders: [openai:gpt-4o-mini]\ntests: file://${file}\n`)
      const out = join(dir, `out-${file}`)
      const result = await cli(['import', 'promptfoo', join(dir, 'config.yaml'), '--out', out])
      expect(result).toMatchObject({ code: 2, err: typeof message === 'string' ? message : expect.stringMatching(message) })
      expect(existsSync(out)).toBe(false)
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('refuses a config that expands past the cases a dataset holds, with exit 2 and the count, as judgeflow test does, before anything is written or run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-promptfoo-'))
    const topics = Array.from({ length: 3_000 }, (_, i) => `topic ${i}`)
    const config = {
      prompts: Array.from({ length: 10 }, (_, i) => `Prompt ${i}: {{topic}}`),
      providers: Array.from({ length: 10 }, (_, i) => `openai:gpt-4o-mini-${i}`),
      tests: [{ vars: { topic: topics }, assert: [{ type: 'contains', value: '{{topic}}' }] }],
    }
    writeFileSync(join(dir, 'grid.yaml'), JSON.stringify(config))
    const refusal = 'the promptfoo config would make 300,000 cases (1 test × 3,000 items of vars.topic × 100 cells of 10 prompts and 10 providers), '
      + 'more than the 100,000 cases a dataset may hold: split it into configs of fewer tests, list items, prompts or providers.'
    const out = join(dir, 'out')
    expect(await cli(['import', 'promptfoo', join(dir, 'grid.yaml'), '--out', out])).toMatchObject({ code: 2, err: refusal })
    expect(existsSync(out)).toBe(false)
    expect(await cli(['test', join(dir, 'grid.yaml'), '--report', join(dir, 'report.json')], fake.env())).toMatchObject({ code: 2, err: expect.stringContaining(refusal) })
    expect(existsSync(join(dir, 'report.json'))).toBe(false)
  })
})

describe('judgeflow import promptfoo: the files it writes are checked before it writes any', () => {
  it('refuses an --out that is a file, a dataset.json that is a symbolic link, and writing over a file the config reads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-promptfoo-'))
    writeFileSync(join(dir, 'a-file'), 'keep me')
    expect(await cli(['import', 'promptfoo', example, '--out', join(dir, 'a-file')])).toEqual({ code: 2, out: '', err: `--out "${join(dir, 'a-file')}" is a file, not a folder: name a folder to write into.` })

    mkdirSync(join(dir, 'out'))
    symlinkSync(join(dir, 'a-file'), join(dir, 'out', 'dataset.json'))
    expect(await cli(['import', 'promptfoo', example, '--out', join(dir, 'out'), '--judge', 'local:heuristic'])).toEqual({ code: 2, out: '', err: `--out "${join(dir, 'out', 'dataset.json')}" is a symbolic link: name the file itself, not a link to it.` })
    expect(readFileSync(join(dir, 'a-file'), 'utf8')).toBe('keep me')

    const tests = '[{"vars":{"question":"hi"},"assert":[{"type":"contains","value":"hi"}]}]'
    writeFileSync(join(dir, 'dataset.json'), tests)
    writeFileSync(join(dir, 'config.yaml'), 'prompts: ["{{question}}"]\nproviders: [openai:gpt-4o-mini]\ntests: file://dataset.json\n')
    expect(await cli(['import', 'promptfoo', join(dir, 'config.yaml'), '--out', dir])).toEqual({
      code: 2, out: '', err: `--out "${join(dir, 'dataset.json')}" is a file of the promptfoo config "${join(dir, 'dataset.json')}", which this command reads: name another file to write.`,
    })
    expect(readFileSync(join(dir, 'dataset.json'), 'utf8')).toBe(tests)
    expect(existsSync(join(dir, 'workflow.json'))).toBe(false)
  })
})
