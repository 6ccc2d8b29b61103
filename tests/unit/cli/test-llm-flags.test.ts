import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { cli } from '../../support/cli'
import type { DatasetReport } from '../../../engine/datasets'
import { FakeLLM, lastUserText } from '../../support/fake-llm'

/** The generation echoes what follows "ECHO:"; the grader passes an output with "hello" in it. */
const fake = new FakeLLM()
beforeAll(async () => {
  await fake.start()
})
beforeEach(() => {
  fake.reset()
  fake.onRequest((request) => {
    const text = lastUserText(request)
    if (request.body.response_format) return { json: /<Output>[^<]*hello/i.test(text) || /hello/.test(text.split('<Rubric>')[0]!) ? { reason: 'says hello', pass: true, score: 1 } : { reason: 'no hello', pass: false, score: 0 } }
    return { text: text.split('ECHO:').at(-1)!.trim() }
  })
})
afterAll(async () => {
  await fake.stop()
})

const grid = `description: Grid
prompts:
  - "Say it. ECHO:{{answer}}"
providers:
  - openai:chat:gpt-quiet
  - openai:chat:gpt-loud
tests:
  - description: greeting
    vars: { answer: hello there }
    assert:
      - { type: contains, value: hello }
  - description: farewell
    vars: { answer: goodbye }
    assert:
      - { type: contains, value: bye }
`
const judge = { evaluation_type: 'assertions', model: 'openai:gpt-saved', assert: [{ type: 'llm-rubric', value: 'the text greets' }] }
const answers = ['hello you', 'go away'].map((content, i) => JSON.stringify({ id: `a${i + 1}`, input: { content } })).join('\n')

function files() {
  const dir = mkdtempSync(join(tmpdir(), 'judgeflow-llm-flags-'))
  writeFileSync(join(dir, 'promptfooconfig.yaml'), grid)
  writeFileSync(join(dir, 'judge.json'), JSON.stringify(judge))
  writeFileSync(join(dir, 'answers.jsonl'), `${answers}\n`)
  return dir
}
const graderModels = () => fake.requests.filter(r => r.body.response_format).map(r => r.body.model)

describe('judgeflow test with LLM calls', () => {
  it('--grader judges every LLM-judged step of an evaluator config with that model, and refuses a metric suite', async () => {
    const dir = files()
    const run = await cli(['test', '--config', join(dir, 'judge.json'), '--dataset', join(dir, 'answers.jsonl'), '--grader', 'openai:gpt-grader'], fake.env())
    expect(run.out).toContain('answers: 1 passed, 1 failed, 0 errored of 2 cases')
    expect(graderModels()).toEqual(['gpt-grader', 'gpt-grader'])
    // Without it, the config's own model.
    fake.requests.length = 0
    await cli(['test', '--config', join(dir, 'judge.json'), '--dataset', join(dir, 'answers.jsonl')], fake.env())
    expect(graderModels()).toEqual(['gpt-saved', 'gpt-saved'])
    expect(await cli(['test', '--config', join(dir, 'judge.json'), '--dataset', join(dir, 'answers.jsonl'), '--grader', 'gpt-grader'], fake.env())).toMatchObject({
      code: 2, err: '--grader must be "provider:model", e.g. "openai:gpt-4o-mini", not "gpt-grader".',
    })
    writeFileSync(join(dir, 'metrics.json'), JSON.stringify({ evaluation_type: 'metrics', default_model: 'openai:gpt-saved' }))
    expect(await cli(['test', '--config', join(dir, 'metrics.json'), '--dataset', join(dir, 'answers.jsonl'), '--grader', 'openai:gpt-grader'], fake.env())).toMatchObject({
      code: 2, err: 'The run\'s grader cannot judge the evaluator step "evaluator": its metrics each name their model; set the model in the step\'s config instead.',
    })
  })

  it('--env-file puts its keys in the environment of the command before the providers are made', async () => {
    const dir = files()
    const { OPENAI_API_KEY, ...withoutKey } = fake.env()
    const args = ['test', '--config', join(dir, 'judge.json'), '--dataset', join(dir, 'answers.jsonl')]
    expect(await cli(args, withoutKey)).toMatchObject({ code: 2, out: '', err: expect.stringContaining('OPENAI_API_KEY is not set') })
    writeFileSync(join(dir, '.env'), `# the key for the judge\nexport OPENAI_API_KEY="${OPENAI_API_KEY}"\n`)
    const run = await cli([...args, '--env-file', join(dir, '.env')], withoutKey)
    expect(run.out).toContain('1 passed, 1 failed, 0 errored')
    expect(fake.requests.at(-1)!.headers.authorization).toBe(`Bearer ${OPENAI_API_KEY}`)
  })

  it('--no-cache asks the model anew where a kept database would answer from its cache', async () => {
    const dir = files()
    // At temperature 0 an answer is kept, to be given again.
    writeFileSync(join(dir, 'promptfooconfig.yaml'), grid.replace(/- (openai:chat:gpt-\w+)/g, '- { id: $1, config: { temperature: 0 } }'))
    const args = ['test', join(dir, 'promptfooconfig.yaml'), '--db', join(dir, 'j.db')]
    await cli(args, fake.env())
    expect(fake.requests).toHaveLength(4)
    await cli(args, fake.env())
    expect(fake.requests).toHaveLength(4)
    await cli([...args, '--no-cache'], fake.env())
    expect(fake.requests).toHaveLength(8)
  })

  it('--delay runs one case at a time unless a concurrency is given', async () => {
    const dir = files()
    fake.onRequest(request => ({ text: lastUserText(request).split('ECHO:').at(-1)!.trim(), delayMs: 40 }))
    await cli(['test', join(dir, 'promptfooconfig.yaml'), '--concurrency', '4'], fake.env())
    expect(fake.maxInFlight).toBeGreaterThan(1)
    fake.maxInFlight = 0
    await cli(['test', join(dir, 'promptfooconfig.yaml'), '--concurrency', '4', '--no-cache', '--delay', '1'], fake.env())
    expect(fake.maxInFlight).toBeGreaterThan(1)
    fake.maxInFlight = 0
    await cli(['test', join(dir, 'promptfooconfig.yaml'), '--no-cache', '--delay', '1'], fake.env())
    expect(fake.maxInFlight).toBe(1)
  })

  it('--filter-pattern chooses whole tests of a promptfoo grid by their description; --var sets a variable of every test', async () => {
    const dir = files()
    const run = await cli(['test', join(dir, 'promptfooconfig.yaml'), '--filter-pattern', '^farewell$', '--report', join(dir, 'r.json')], fake.env())
    expect(run.out).toContain('Grid: 2 passed, 0 failed, 0 errored of 2 cases')
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as DatasetReport
    expect(report.results.map(r => r.case_id)).toEqual(['farewell · prompt 1 · openai:gpt-quiet', 'farewell · prompt 1 · openai:gpt-loud'])
    const bye = await cli(['test', join(dir, 'promptfooconfig.yaml'), '--var', 'answer=bye now'], fake.env())
    expect(bye.out).toContain('Grid: 2 passed, 2 failed, 0 errored of 4 cases')
  })
})

describe('judgeflow test --repeat: the progress counts as the report does', () => {
  it('ends with the summary\'s passed, failed and errored cases, and counts the case runs it says it counts', async () => {
    const dir = files()
    writeFileSync(join(dir, 'flaky.yaml'), `description: Flaky
prompts:
  - "Say it. ECHO:{{answer}}"
providers:
  - openai:chat:gpt-quiet
tests:
  - description: steady
    vars: { answer: hello there }
    assert:
      - { type: contains, value: hello }
  - description: wavering
    vars: { answer: hi }
    assert:
      - { type: llm-rubric, value: a greeting, provider: openai:gpt-grader }
  - description: broken
    vars: { answer: oops }
    assert:
      - { type: llm-rubric, value: a greeting, provider: openai:gpt-grader }
`)
    // The grader of "hi" passes it every other time; "oops" is not answered once in three.
    let hi = 0
    let oops = 0
    fake.onRequest((request) => {
      const text = lastUserText(request)
      if (!request.body.response_format) {
        if (text.endsWith('oops') && ++oops === 2) return { status: 400, json: { error: { message: 'bad request' } } }
        return { text: text.split('ECHO:').at(-1)!.trim() }
      }
      if (text.includes('oops')) return { json: { reason: 'fine', pass: true, score: 1 } }
      return { json: ++hi % 2 ? { reason: 'greets', pass: true, score: 1 } : { reason: 'does not', pass: false, score: 0 } }
    })
    const run = await cli(['test', join(dir, 'flaky.yaml'), '--repeat', '3', '--concurrency', '1', '--report', join(dir, 'r.json')], fake.env())
    expect(run.out).toContain('Flaky: 1 passed, 1 failed, 1 errored of 3 cases')
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as DatasetReport
    expect(report.results).toHaveLength(9)
    expect(run.err.split('\n').at(-1)).toBe('9/9 case runs · cases: 1 passed · 1 failed · 1 errored')
  })
})

describe('judgeflow test over repeats of a judge that wavers', () => {
  /** The judge passes "hello you" every other call; it fails "go away" each time, with a score that moves. */
  function wavering() {
    let greets = 0
    let away = 0
    fake.onRequest((request) => {
      const text = lastUserText(request)
      if (text.includes('hello you')) return { json: ++greets % 2 ? { reason: 'greets', pass: true, score: 0.9 } : { reason: 'curt', pass: false, score: 0.3 } }
      return { json: { reason: 'no greeting', pass: false, score: [0.1, 0.3, 0.2][away++ % 3] } }
    })
  }

  it('asks the judge anew for every repeat, gives pass^N, pass@N and the spread, and fails --max-flaky', async () => {
    const dir = files()
    wavering()
    const report = join(dir, 'r.json')
    const run = await cli(['test', '--config', join(dir, 'judge.json'), '--dataset', join(dir, 'answers.jsonl'), '--repeat', '3', '--concurrency', '1', '--max-flaky', '0.4', '--min-pass-rate', '0', '--report', report], fake.env())
    // Two cases × three repeats: six real calls, none answered from the response cache.
    expect(graderModels()).toHaveLength(6)
    expect(run.code).toBe(1)
    expect(run.out).toContain('repeats: pass^N 0.0 % (every repeat passed), pass@N 50.0 % (a repeat passed), 1 flaky')
    expect(run.out).toContain('FAIL max_flaky: required 0.4, actual 0.5')
    const written = JSON.parse(readFileSync(report, 'utf8')) as DatasetReport
    expect(written).toMatchObject({ pass_all_repeats: 0, pass_any_repeat: 0.5, flaky: ['a1'] })
    const away = written.results.filter(r => r.case_id === 'a2')
    expect(away.map(r => r.score)).toEqual([0.1, 0.3, 0.2])
    // SD of 0.1, 0.3, 0.2 (n − 1): 0.1.
    expect(away[0]).toMatchObject({ score_sd: 0.1, score_min: 0.1, score_max: 0.3 })
    expect(written.gates.find(g => g.gate === 'max_flaky')).toEqual({ gate: 'max_flaky', required: 0.4, actual: 0.5, passed: false })
  })

  it('holds --max-flaky when the share is within it', async () => {
    const dir = files()
    wavering()
    const run = await cli(['test', '--config', join(dir, 'judge.json'), '--dataset', join(dir, 'answers.jsonl'), '--repeat', '2', '--max-flaky', '0.5', '--min-pass-rate', '0'], fake.env())
    expect(run.out).toContain('ok   max_flaky: required 0.5, actual 0.5')
    expect(run.code).toBe(0)
  })

  it('refuses --max-flaky without repeats before any case runs', async () => {
    const dir = files()
    const run = await cli(['test', '--config', join(dir, 'judge.json'), '--dataset', join(dir, 'answers.jsonl'), '--max-flaky', '0.1'], fake.env())
    expect(run.code).toBe(2)
    expect(run.err).toContain('--max-flaky needs --repeat N with N of 2 or more')
    expect(fake.requests).toHaveLength(0)
  })
})

describe('judgeflow test with a judge panel whose judges disagree', () => {
  it('reports each run\'s judges, Fleiss\' κ between them beside the agreement with the labels', async () => {
    const dir = files()
    const panel = {
      evaluation_type: 'criteria', judges: ['openai:judge-a', 'openai:judge-b', 'openai:judge-c'], pass_threshold: 0.7,
      criteria: [{ name: 'greeting', description: 'Greets the reader', weight: 1 }],
    }
    writeFileSync(join(dir, 'panel.json'), JSON.stringify(panel))
    const labelled = [['hello you', 'pass'], ['go away', 'fail']].map(([content, verdict], i) => JSON.stringify({ id: `a${i + 1}`, input: { content }, expected: { verdict } })).join('\n')
    writeFileSync(join(dir, 'labelled.jsonl'), `${labelled}\n`)
    // a passes everything, c nothing, b only a greeting.
    fake.onRequest((request) => {
      const model = request.body.model as string
      const score = model === 'judge-a' || (model === 'judge-b' && lastUserText(request).includes('hello you')) ? 0.9 : 0.2
      return { json: { criteria_scores: { greeting: score }, criteria_reasons: { greeting: 'r' }, feedback: `${model} says ${score}`, suggestions: [] } }
    })
    const report = join(dir, 'panel-report.json')
    const run = await cli(['test', '--config', join(dir, 'panel.json'), '--dataset', join(dir, 'labelled.jsonl'), '--report', report], fake.env())
    expect(fake.requests.map(r => r.body.model).sort()).toEqual(['judge-a', 'judge-a', 'judge-b', 'judge-b', 'judge-c', 'judge-c'])
    // a1: a and b pass, c fails → pass; a2: a passes, b and c fail → fail. Pᵢ = 1/3 each, p_pass = 1/2 → κ = −1/3.
    expect(run.out).toContain('judge agreement: κ 1 on 2 labelled cases, accuracy 100.0 %')
    expect(run.out).toContain('judges agree: Fleiss\' κ -0.3333 over 2 runs of openai:judge-a, openai:judge-b, openai:judge-c, pairs agreeing 33.3 %')
    const written = JSON.parse(readFileSync(report, 'utf8')) as DatasetReport
    expect(written.agreement).toMatchObject({ kappa: 1, judges_kappa: -0.3333, judges: { runs: 2, pair_agreement: 0.333 } })
    // What these figures are a calibration of: the judge's fingerprint, the same in every run.
    expect(written.agreement!.judge_fingerprint).toMatch(/^[0-9a-f]{16}$/)
    expect(Object.keys(written.agreement!.judge_fingerprint_parts!)).toEqual(['models', 'prompt', 'criteria', 'rubric', 'weights', 'threshold'])
    expect(written.results.map(r => r.panel!.judges.map(j => j.passed))).toEqual([[true, true, false], [true, false, false]])
  })
})
