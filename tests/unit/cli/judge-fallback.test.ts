import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../../support/cli'
import type { DatasetReport } from '../../../engine/datasets'

/** An evaluator config that names no judge model: with no key set, local:heuristic grades it. */
const unnamedJudge = { evaluation_type: 'criteria', criteria: [{ name: 'relevance', description: 'Answers the question', weight: 1 }], pass_threshold: 0.1 }
const WARNING = 'No judge model was named and neither OPENAI_API_KEY nor ANTHROPIC_API_KEY is set, so the offline local:heuristic judge graded this'

function files() {
  const dir = mkdtempSync(join(tmpdir(), 'judgeflow-judge-'))
  const write = (name: string, value: unknown) => {
    writeFileSync(join(dir, name), typeof value === 'string' ? value : JSON.stringify(value))
    return join(dir, name)
  }
  const workflow = write('gate.json', {
    name: 'gate',
    nodes: [
      { id: 'in', type: 'input', config: {} },
      { id: 'judge', type: 'evaluator', config: { ...unnamedJudge, content: '{{input.answer}}', context: '{{input.question}}' } },
    ],
    edges: [{ from: 'in', to: 'judge' }],
  })
  return {
    dir, workflow,
    config: write('judge.json', unnamedJudge),
    input: write('input.json', { content: 'Paris is the capital of France.', context: 'What is the capital of France?' }),
    runInput: write('run-input.json', { answer: 'Paris is the capital of France.', question: 'What is the capital of France?' }),
    dataset: write('cases.jsonl', '{"id":"a","input":{"content":"Paris is the capital of France.","context":"What is the capital of France?"}}\n{"id":"b","input":{"content":"Paris.","context":"Capital of France?"}}\n'),
  }
}

const warnings = (err: string) => err.split('\n').filter(line => line.includes(WARNING))

describe('the CLI says when local:heuristic stood in for the default judge, and refuses it on --require-judge', () => {
  it('eval: the warning on stderr once, and in the result; --require-judge or JUDGEFLOW_REQUIRE_JUDGE=1 exit 2 with one sentence', async () => {
    const f = files()
    const judged = await cli(['eval', '--config', f.config, '--input', f.input])
    expect(judged.code).toBe(0)
    expect(warnings(judged.err)).toEqual([expect.stringMatching(/^Warning: No judge model was named/)])
    expect(JSON.parse(judged.out).warnings).toEqual([expect.stringContaining(WARNING)])
    for (const refused of [await cli(['eval', '--config', f.config, '--input', f.input, '--require-judge']), await cli(['eval', '--config', f.config, '--input', f.input], { JUDGEFLOW_REQUIRE_JUDGE: '1' })]) {
      expect(refused).toEqual({ code: 2, out: '', err: expect.stringMatching(/^A real judge is required \(--require-judge, JUDGEFLOW_REQUIRE_JUDGE\), but the evaluator names no judge model and neither OPENAI_API_KEY nor ANTHROPIC_API_KEY is set: [^\n]*\.$/) })
    }
  })

  it('run: the warning on stderr once, naming the step; --require-judge refuses before the run starts', async () => {
    const f = files()
    const run = await cli(['run', f.workflow, '--input', f.runInput])
    expect(run.code).toBe(0)
    expect(warnings(run.err)).toEqual([expect.stringMatching(/^Warning \(step "judge"\): No judge model was named/)])
    const refused = await cli(['run', f.workflow, '--input', f.runInput, '--require-judge'])
    expect(refused).toEqual({ code: 2, out: '', err: expect.stringMatching(/^A real judge is required [^\n]* but node "judge" names no judge model [^\n]*\.$/) })
  })

  it('test: on stderr once per run and in the summary, the JSON report, Markdown, HTML and JUnit; --require-judge exits 2 before any case', async () => {
    const f = files()
    const report = join(f.dir, 'r.json'), junit = join(f.dir, 'r.xml'), html = join(f.dir, 'r.html')
    const run = await cli(['test', '--config', f.config, '--dataset', f.dataset, '--min-pass-rate', '0', '--report', report, '--junit', junit, '--html', html])
    expect(run.code).toBe(0)
    expect(warnings(run.err)).toEqual([expect.stringMatching(/^Warning: No judge model was named.* \(2 of 2 case runs\)$/)])
    expect(warnings(run.out)).toHaveLength(1)
    const written = JSON.parse(readFileSync(report, 'utf8')) as DatasetReport
    expect(written.warnings).toEqual([{ message: expect.stringContaining(WARNING), case_runs: 2 }])
    expect(readFileSync(junit, 'utf8')).toMatch(/<property name="warning" value="Warning: No judge model was named[^"]*\(2 of 2 case runs\)"\/>/)
    expect(readFileSync(html, 'utf8')).toMatch(/<p class="warning" role="note">Warning: No judge model was named/)
    const markdown = await cli(['test', '--config', f.config, '--dataset', f.dataset, '--min-pass-rate', '0', '--markdown'])
    expect(markdown.out).toMatch(/^> \*\*Warning: No judge model was named/m)

    const refused = await cli(['test', '--config', f.config, '--dataset', f.dataset, '--require-judge'])
    expect(refused.code).toBe(2)
    expect(refused.err).toMatch(/^A real judge is required [^\n]* names no judge model [^\n]*\.$/)
    expect(refused.err).not.toContain('case runs')
  })
})
