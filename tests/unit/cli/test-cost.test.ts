import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { cli } from '../../support/cli'
import type { DatasetReport } from '../../../engine/datasets'
import { lastUserText } from '../../support/fake-llm'
import { useFakeJudge } from '../../support/fake-judge'

// Every call reports 1,000 tokens in and 1,000 out. At the published prices per million tokens:
// gpt-4o-mini 0.15 / 0.6 → $0.00075 a call; gpt-4o 2.5 / 10 → $0.0125 a call.
const { fake } = useFakeJudge()
beforeEach(() => {
  fake.onRequest((request) => {
    const usage = { input_tokens: 1000, output_tokens: 1000 }
    if (request.body.response_format) return { usage, json: { criteria_scores: { helpful: 0.9 }, criteria_reasons: { helpful: 'ok' }, feedback: 'fine', suggestions: [] } }
    return { usage, text: `answer to ${lastUserText(request)}` }
  })
})

const criteria = [{ name: 'helpful', description: 'Helps', weight: 1 }]
const workflow = {
  name: 'Answer and judge',
  nodes: [
    { id: 'in', type: 'input', config: { fields: { question: { type: 'string' } } }, position: { x: 0, y: 0 } },
    { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Answer: {{input.question}}' }, position: { x: 200, y: 0 } },
    { id: 'judge', type: 'evaluator', config: { evaluation_type: 'criteria', model: 'openai:gpt-4o', criteria, content: '{{steps.draft.text}}' }, position: { x: 400, y: 0 } },
  ],
  edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }],
}

function files(cases = 6) {
  const dir = mkdtempSync(join(tmpdir(), 'judgeflow-cost-'))
  writeFileSync(join(dir, 'workflow.json'), JSON.stringify(workflow))
  writeFileSync(join(dir, 'questions.jsonl'), `${Array.from({ length: cases }, (_, i) => JSON.stringify({ id: `q${i + 1}`, input: { question: `question ${i + 1}` } })).join('\n')}\n`)
  writeFileSync(join(dir, 'judge.json'), JSON.stringify({ evaluation_type: 'criteria', model: 'openai:gpt-unpriced', criteria }))
  writeFileSync(join(dir, 'answers.jsonl'), `${Array.from({ length: cases }, (_, i) => JSON.stringify({ id: `a${i + 1}`, input: { content: `answer ${i + 1}` } })).join('\n')}\n`)
  return dir
}

describe('what a dataset run costs', () => {
  it('counts the generation\'s and the judge\'s tokens apart, and each run\'s cost at the models\' prices', async () => {
    const dir = files(2)
    const report = join(dir, 'r.json')
    const run = await cli(['test', join(dir, 'workflow.json'), '--dataset', join(dir, 'questions.jsonl'), '--report', report], fake.env())
    expect(run.code).toBe(0)
    const written = JSON.parse(readFileSync(report, 'utf8')) as DatasetReport
    expect(written.tokens).toEqual({ input: 4000, output: 4000, generation: { input: 2000, output: 2000 }, judge: { input: 2000, output: 2000 } })
    // Per case: 0.00075 + 0.0125.
    expect(written.results.map(r => r.cost_usd)).toEqual([0.01325, 0.01325])
    expect(written.cost_usd).toBe(0.0265)
    expect(run.out).toContain('cost: $0.0265 (generation 2000+2000, judge 2000+2000 tokens)')
    expect(written.not_run).toEqual([])
  })

  it('--max-cost starts no case once the budget is spent; the cases left are not run, never passed, and the exit is 2', async () => {
    const dir = files(6)
    const report = join(dir, 'r.json')
    // One case at a time at $0.01325: after three, $0.03975 ≥ $0.035, so three are left.
    const run = await cli(['test', join(dir, 'workflow.json'), '--dataset', join(dir, 'questions.jsonl'), '--concurrency', '1', '--max-cost', '0.035', '--report', report], fake.env())
    expect(run.code).toBe(2)
    const written = JSON.parse(readFileSync(report, 'utf8')) as DatasetReport
    expect(written).toMatchObject({ cases: 6, passed: 3, failed: 0, errored: 0, not_run: ['q4', 'q5', 'q6'], cost_usd: 0.03975 })
    expect(written.gates.find(g => g.gate === 'max_cost_usd')).toEqual({ gate: 'max_cost_usd', required: 0.035, actual: 0.03975, passed: false })
    // Three cases, two calls each: no call was made for the cases left.
    expect(fake.requests).toHaveLength(6)
    expect(run.out).toContain('NOT RUN 3 of 6 cases: the budget of $0.035 was reached')
    expect(run.out).toContain('FAIL max_cost_usd: required 0.035, actual 0.03975')
  })

  it('--max-cost refuses a run estimated over the budget before any call; --force starts only what the budget pays for', async () => {
    const dir = files(64)
    const report = join(dir, 'r.json')
    const args = ['test', join(dir, 'workflow.json'), '--dataset', join(dir, 'questions.jsonl'), '--concurrency', '64', '--max-cost', '0.000001', '--report', report]
    const refused = await cli(args, fake.env())
    expect(refused.code).toBe(2)
    expect(refused.err).toMatch(/max_cost_usd: the run is estimated at \$0\.335888 for 64 case runs, over the budget of \$0\.000001; raise the budget, run fewer cases, or set force/)
    expect(fake.requests).toHaveLength(0)
    // Forced, no case starts: one case run is estimated at more than the whole budget.
    const forced = await cli([...args, '--force'], fake.env())
    expect(forced.code).toBe(2)
    const written = JSON.parse(readFileSync(report, 'utf8')) as DatasetReport
    expect(written).toMatchObject({ passed: 0, cost_usd: 0 })
    expect(written.not_run).toHaveLength(64)
    expect(written.gates.find(g => g.gate === 'max_cost_usd')).toEqual({ gate: 'max_cost_usd', required: 0.000001, actual: 0, passed: false })
    expect(written.results.every(r => r.error?.startsWith('not run: the budget left ($0.000001 of $0.000001) cannot pay for another case run at the estimated $0.005248 each'))).toBe(true)
    expect(fake.requests).toHaveLength(0)
  })

  it('--max-cost holds the budget for the case runs under way: with --concurrency 6, only as many start as the budget pays for at the estimate', async () => {
    const dir = files(6)
    const report = join(dir, 'r.json')
    // Estimated at $0.00525 a case run ($0.0315 in all, over $0.0175): three fit at once; each costs $0.01325, so no fourth starts.
    const run = await cli(['test', join(dir, 'workflow.json'), '--dataset', join(dir, 'questions.jsonl'), '--concurrency', '6', '--max-cost', '0.0175', '--force', '--report', report], fake.env())
    expect(run.code).toBe(2)
    const written = JSON.parse(readFileSync(report, 'utf8')) as DatasetReport
    expect(written.not_run).toHaveLength(3)
    expect(written.cost_usd).toBe(0.03975)
    expect(fake.requests).toHaveLength(6)
    expect(written.gates.find(g => g.gate === 'max_cost_usd')).toMatchObject({ actual: 0.03975, passed: false })
  })

  it('the budget gate fails when the runs cost more than the budget, even with every case run', async () => {
    const dir = files(2)
    const report = join(dir, 'r.json')
    // Estimated at $0.0105, within $0.02: both start; they cost $0.0265.
    const run = await cli(['test', join(dir, 'workflow.json'), '--dataset', join(dir, 'questions.jsonl'), '--concurrency', '2', '--max-cost', '0.02', '--report', report, '--junit', join(dir, 'j.xml')], fake.env())
    expect(run.code).toBe(1)
    const written = JSON.parse(readFileSync(report, 'utf8')) as DatasetReport
    expect(written).toMatchObject({ passed: 2, not_run: [], cost_usd: 0.0265 })
    expect(written.gates.find(g => g.gate === 'max_cost_usd')).toEqual({ gate: 'max_cost_usd', required: 0.02, actual: 0.0265, passed: false })
    expect(run.out).toContain('FAIL max_cost_usd: required 0.02, actual 0.0265')
  })

  it('--max-cost with a model whose price is not known stops after the first run rather than spend blind', async () => {
    const dir = files(4)
    const report = join(dir, 'r.json')
    const run = await cli(['test', '--config', join(dir, 'judge.json'), '--dataset', join(dir, 'answers.jsonl'), '--concurrency', '1', '--max-cost', '5', '--report', report], fake.env())
    expect(run.code).toBe(2)
    const written = JSON.parse(readFileSync(report, 'utf8')) as DatasetReport
    expect(written).toMatchObject({ passed: 1, not_run: ['a2', 'a3', 'a4'], cost_usd: null })
    expect(written.gates.find(g => g.gate === 'max_cost_usd')).toMatchObject({ actual: null, passed: false })
    expect(fake.requests).toHaveLength(1)
  })

  it('refuses a budget that is not a positive amount', async () => {
    const dir = files(1)
    const run = await cli(['test', join(dir, 'workflow.json'), '--dataset', join(dir, 'questions.jsonl'), '--max-cost', '0'], fake.env())
    expect(run.code).toBe(2)
    expect(run.err).toContain('--max-cost must be a number from 0.000001 to 1000000, not "0"')
    expect(fake.requests).toHaveLength(0)
  })

  it('says first what the run will cost: from the prompts\' length, then from the last run of the same dataset and workflow', async () => {
    const dir = files(2)
    const db = join(dir, 'kept.db')
    const report = join(dir, 'r.json')
    const first = await cli(['test', join(dir, 'workflow.json'), '--dataset', join(dir, 'questions.jsonl'), '--db', db, '--max-cost', '1', '--report', report], fake.env())
    // Per case: the LLM step "Answer: question 1" is 18 characters → 5 tokens in, 400 assumed out at gpt-4o-mini's price ($0.00024075);
    // the judge 600 + 3 (the case's 10 characters) + 400 (the answer it judges) = 1,003 in, 250 out at gpt-4o's ($0.0050075).
    expect(first.err.split('\n')[0]).toBe('estimate: about $0.0104965 for 2 case runs, from the prompts\' length: 4 calls, about 2016 tokens in and 1300 out (a rough figure), within the --max-cost budget of $1')
    expect((JSON.parse(readFileSync(report, 'utf8')) as DatasetReport).estimate_usd).toBe(0.0104965)
    // The first run cost $0.0265 for 2 case runs: 4 case runs now, over the budget, refused before any runs.
    const refused = await cli(['test', join(dir, 'workflow.json'), '--dataset', join(dir, 'questions.jsonl'), '--db', db, '--repeat', '2', '--max-cost', '0.03'], fake.env())
    expect(refused.code).toBe(2)
    expect(refused.err).toContain('max_cost_usd: the run is estimated at $0.053 for 4 case runs, over the budget of $0.03; raise the budget, run fewer cases, or set force (--force from the command line)')
    const second = await cli(['test', join(dir, 'workflow.json'), '--dataset', join(dir, 'questions.jsonl'), '--db', db, '--repeat', '2', '--max-cost', '0.03', '--force'], fake.env())
    expect(second.err.split('\n')[0]).toMatch(/^estimate: \$0\.053 for 4 case runs, from the last run of this dataset on this target \([\w-]+\), over the --max-cost budget of \$0\.03 \(--force\): only the case runs it pays for start$/)
  })

  it('says so when a model\'s price is not known', async () => {
    const dir = files(1)
    const run = await cli(['test', '--config', join(dir, 'judge.json'), '--dataset', join(dir, 'answers.jsonl')], fake.env())
    // An evaluator alone judging "answer 1": 600 + 2 + 400 = 1,002 in.
    expect(run.err.split('\n')[0]).toBe('estimate: not known, no price for openai:gpt-unpriced (1 case run, from the prompts\' length: 1 calls, about 1002 tokens in and 250 out)')
  })

  it('takes the prices JUDGEFLOW_PRICES gives, before the published ones, and refuses a malformed one naming it', async () => {
    const dir = files(2)
    const report = join(dir, 'r.json')
    const priced = { ...fake.env(), JUDGEFLOW_PRICES: JSON.stringify({ 'openai:gpt-unpriced': [1, 2] }) }
    const run = await cli(['test', '--config', join(dir, 'judge.json'), '--dataset', join(dir, 'answers.jsonl'), '--report', report], priced)
    // 1,000 tokens in at $1 and 1,000 out at $2 per million: $0.003 a call.
    expect((JSON.parse(readFileSync(report, 'utf8')) as DatasetReport).cost_usd).toBe(0.006)
    expect(run.err.split('\n')[0]).toMatch(/^estimate: about \$/)
    const bad = await cli(['test', '--config', join(dir, 'judge.json'), '--dataset', join(dir, 'answers.jsonl')], { ...fake.env(), JUDGEFLOW_PRICES: '{"gpt-4o": 3}' })
    expect(bad.code).toBe(2)
    expect(bad.err).toContain('JUDGEFLOW_PRICES must be a JSON object of "provider:model": [input, output] US dollars per million tokens')
  })
})
