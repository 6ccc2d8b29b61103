import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { cli } from '../../support/cli'
import type { DatasetReport } from '../../../engine/datasets'
import { FakeLLM } from '../../support/fake-llm'

/** Any request the fake server receives is a generation call: the judge is local:heuristic, offline. */
const fake = new FakeLLM()
beforeAll(async () => {
  await fake.start()
})
beforeEach(() => {
  fake.reset()
  fake.onRequest(() => ({ text: 'a generated answer' }))
})
afterAll(async () => {
  await fake.stop()
})

const workflow = {
  name: 'Gate',
  nodes: [
    { id: 'in', type: 'input', config: { fields: { question: { type: 'string', required: true } } } },
    { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Answer: {{input.question}}' } },
    { id: 'judge', type: 'evaluator', config: { evaluation_type: 'scoring', model: 'local:heuristic', pass_threshold: 0.5, content: '{{steps.draft.text}}', context: '{{input.question}}' } },
  ],
  edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }],
}
const good = 'To reset your password, open Settings, choose Forgot password, enter your email address and follow the link we send you.'
const poor = 'No.'
const jsonl = (rows: unknown[]) => `${rows.map(r => JSON.stringify(r)).join('\n')}\n`

function files() {
  const dir = mkdtempSync(join(tmpdir(), 'judgeflow-recorded-'))
  writeFileSync(join(dir, 'gate.json'), JSON.stringify(workflow))
  writeFileSync(join(dir, 'judge.json'), JSON.stringify({ evaluation_type: 'scoring', model: 'local:heuristic', pass_threshold: 0.5 }))
  writeFileSync(join(dir, 'questions.jsonl'), jsonl([
    { id: 'q1', input: { question: 'How do I reset my password?' } },
    { id: 'q2', input: { question: 'How do I reset my password please?' } },
  ]))
  writeFileSync(join(dir, 'outputs.jsonl'), jsonl([{ id: 'q2', output: poor }, { id: 'q1', output: good }]))
  return dir
}
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as DatasetReport

describe('judgeflow test on recorded outputs', () => {
  it('--outputs judges the recorded outputs in place of the generating step: no generation call, the report says where from', async () => {
    const dir = files()
    const base = ['test', join(dir, 'gate.json'), '--dataset', join(dir, 'questions.jsonl'), '--min-pass-rate', '0']
    // Without it, the LLM step calls the model: what --outputs replaces.
    await cli(base, fake.env())
    expect(fake.requests).toHaveLength(2)
    fake.reset()

    const outputs = join(dir, 'outputs.jsonl')
    const run = await cli([...base, '--outputs', outputs, '--report', join(dir, 'r.json'), '--junit', join(dir, 'r.xml'), '--html', join(dir, 'r.html')], fake.env())
    expect(run.err).toContain('estimate: about $0 for 2 case runs')
    expect(fake.requests).toHaveLength(0)
    const report = read(join(dir, 'r.json'))
    expect(report.recorded_outputs).toEqual({ from: outputs, step: 'draft' })
    expect(report.results.map(r => [r.case_id, r.output, r.verdict])).toEqual([['q1', good, 'pass'], ['q2', poor, 'fail']])
    expect(report.tokens.generation).toEqual({ input: 0, output: 0 })
    const note = `Outputs recorded, not generated: read from ${outputs}, standing in for step "draft"; no generation call was made.`
    expect(run.out).toContain(note)
    expect(readFileSync(join(dir, 'r.html'), 'utf8')).toContain('Outputs recorded, not generated')
    expect(readFileSync(join(dir, 'r.xml'), 'utf8')).toContain(`<property name="recorded_outputs" value="${outputs}"/>`)
    const markdown = await cli([...base, '--outputs', outputs, '--markdown'], fake.env())
    expect(markdown.out).toContain('Outputs recorded, not generated')
    // Even with no key for the model the step would call: nothing is called.
    const { OPENAI_API_KEY: _key, ...keyless } = fake.env()
    expect(await cli([...base, '--outputs', outputs], keyless)).toMatchObject({ code: 0, out: expect.stringContaining('1 passed, 1 failed, 0 errored') })
    expect(fake.requests).toHaveLength(0)
  })

  it('a dataset\'s output column (CSV) or field (JSONL) is judged the same way, from "the dataset\'s output column"', async () => {
    const dir = files()
    writeFileSync(join(dir, 'logged.csv'), `id,question,output\nq1,How do I reset my password?,"${good}"\nq2,How do I reset my password please?,${poor}\n`)
    const run = await cli(['test', join(dir, 'gate.json'), '--dataset', join(dir, 'logged.csv'), '--min-pass-rate', '0', '--report', join(dir, 'r.json')], fake.env())
    expect(run.code).toBe(0)
    expect(fake.requests).toHaveLength(0)
    const report = read(join(dir, 'r.json'))
    expect(report.recorded_outputs).toEqual({ from: 'the dataset\'s output column', step: 'draft' })
    expect(report.results.map(r => [r.output, r.verdict])).toEqual([[good, 'pass'], [poor, 'fail']])
    writeFileSync(join(dir, 'logged.jsonl'), jsonl([{ id: 'q1', input: { question: 'Reset?' }, output: { text: good } }]))
    const fromJsonl = await cli(['test', join(dir, 'gate.json'), '--dataset', join(dir, 'logged.jsonl'), '--report', join(dir, 'j.json')], fake.env())
    expect(fromJsonl.code).toBe(0)
    expect(read(join(dir, 'j.json')).results[0]).toMatchObject({ output: good, verdict: 'pass' })
    expect(fake.requests).toHaveLength(0)
  })

  it('--config: the recorded output is the content judged', async () => {
    const dir = files()
    const run = await cli(['test', '--config', join(dir, 'judge.json'), '--dataset', join(dir, 'questions.jsonl'), '--outputs', join(dir, 'outputs.jsonl'), '--min-pass-rate', '0', '--report', join(dir, 'r.json')], fake.env())
    expect(run.code).toBe(0)
    const report = read(join(dir, 'r.json'))
    expect(report.recorded_outputs).toEqual({ from: join(dir, 'outputs.jsonl'), step: null })
    expect(report.results.map(r => [r.case_id, r.verdict])).toEqual([['q1', 'pass'], ['q2', 'fail']])
    writeFileSync(join(dir, 'with-content.jsonl'), jsonl([{ id: 'q1', input: { content: 'mine' } }]))
    writeFileSync(join(dir, 'one.jsonl'), jsonl([{ id: 'q1', output: good }]))
    expect(await cli(['test', '--config', join(dir, 'judge.json'), '--dataset', join(dir, 'with-content.jsonl'), '--outputs', join(dir, 'one.jsonl')], fake.env())).toMatchObject({
      code: 2, err: 'case "q1" has both an input "content" and a recorded output, which is the content judged: keep one.',
    })
  })

  it('refuses, naming the file, line and case, an outputs file that leaves a case out, names an unknown case or one twice', async () => {
    const dir = files()
    const base = ['test', join(dir, 'gate.json'), '--dataset', join(dir, 'questions.jsonl'), '--outputs']
    const refusal = async (lines: unknown[] | string) => {
      const path = join(dir, `o${Math.random().toString(36).slice(2)}.jsonl`)
      writeFileSync(path, typeof lines === 'string' ? lines : jsonl(lines))
      const run = await cli([...base, path], fake.env())
      expect(run.code).toBe(2)
      return run.err.replace(path, '<file>')
    }
    expect(await refusal([{ id: 'q1', output: good }])).toBe('the outputs file "<file>" has no output for case "q2"; every case needs its recorded output (nothing is generated for a case without one).')
    expect(await refusal([{ id: 'q1', output: good }, { id: 'q2', output: poor }, { id: 'q9', output: poor }])).toBe('the outputs file "<file>": case "q9" is not a case of the dataset; every line must name one of its cases.')
    expect(await refusal([{ id: 'q1', output: good }, { id: 'q2', output: poor }, { id: 'q1', output: poor }])).toBe('the outputs file "<file>", line 3: case "q1" already has its output on line 1; give each case one output.')
    expect(await refusal([{ id: 'q1', output: good }, { id: 'q2' }])).toBe('the outputs file "<file>", line 2 (case "q2"): "output" is missing: give the text the case produced (or an object, the step\'s whole output).')
    expect(await refusal([{ id: 'q1', output: null }])).toBe('the outputs file "<file>", line 1 (case "q1"): "output" must be a text or an object (the step\'s whole output), not null.')
    expect(await refusal([{ id: 'q1', output: good, score: 1 }])).toBe('the outputs file "<file>", line 1 (case "q1"): unknown key(s) score; a line holds "id" and "output" only.')
    expect(await refusal('{"id": "q1", "output": "x"}\nnot json\n')).toMatch(/^the outputs file "<file>", line 2 is not valid JSON/)
    expect(fake.requests).toHaveLength(0)
  })

  it('refuses a dataset whose output column leaves a case out, or outputs given twice', async () => {
    const dir = files()
    writeFileSync(join(dir, 'holes.csv'), `id,question,output\nq1,Reset?,"${good}"\nq2,Reset?,\n`)
    expect(await cli(['test', join(dir, 'gate.json'), '--dataset', join(dir, 'holes.csv')], fake.env())).toMatchObject({
      code: 2, err: expect.stringContaining('line 3, output: is empty for case "q2": every case needs its recorded output'),
    })
    writeFileSync(join(dir, 'mixed.jsonl'), jsonl([{ id: 'q1', input: { question: 'Reset?' }, output: good }, { id: 'q2', input: { question: 'Reset?' } }]))
    expect(await cli(['test', join(dir, 'gate.json'), '--dataset', join(dir, 'mixed.jsonl')], fake.env())).toMatchObject({
      code: 2, err: 'case "q2" has no output, while case "q1" and others do: a dataset judged on recorded outputs needs one for every case.',
    })
    const both = await cli(['test', join(dir, 'gate.json'), '--dataset', join(dir, 'mixed.jsonl'), '--outputs', join(dir, 'outputs.jsonl')], fake.env())
    expect(both.err).toContain('case "q1" already has an output in the dataset; give the outputs in one place')
    expect(fake.requests).toHaveLength(0)
  })

  it('--output-step names the step when the evaluators judge several, and a step that cannot stand in is refused', async () => {
    const dir = files()
    const two = {
      ...workflow,
      nodes: [...workflow.nodes, { id: 'polish', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Polish: {{steps.draft.text}}' } },
        { id: 'judge2', type: 'evaluator', config: { evaluation_type: 'scoring', model: 'local:heuristic', content: '{{steps.polish.text}}' } }],
      edges: [...workflow.edges, { from: 'draft', to: 'polish' }, { from: 'polish', to: 'judge2' }],
    }
    writeFileSync(join(dir, 'two.json'), JSON.stringify(two))
    const base = ['test', join(dir, 'two.json'), '--dataset', join(dir, 'questions.jsonl'), '--outputs', join(dir, 'outputs.jsonl'), '--min-pass-rate', '0']
    expect(await cli(base, fake.env())).toMatchObject({
      code: 2, err: 'the evaluator steps judge the outputs of several steps ("draft", "polish"): name the one the recorded outputs stand in for with output_step (--output-step).',
    })
    expect(await cli([...base, '--output-step', 'judge'], fake.env())).toMatchObject({ code: 2, err: expect.stringContaining('step "judge" is a evaluator step') })
    const run = await cli([...base, '--output-step', 'polish', '--score-step', 'judge2', '--report', join(dir, 'r.json')], fake.env())
    expect(run.code).toBe(0)
    expect(read(join(dir, 'r.json')).recorded_outputs).toEqual({ from: join(dir, 'outputs.jsonl'), step: 'polish' })
    // The draft still ran: only the named step stands in for the recorded output.
    expect(fake.requests).toHaveLength(2)
  })
})
