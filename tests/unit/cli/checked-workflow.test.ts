/**
 * The CLI refuses a workflow with problems as the API and the editor do: `validate` lists them and
 * exits 2; `test` lists them and exits 2 before the dataset is kept or any case runs.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../../support/cli'

const examples = join(import.meta.dirname, '../../../examples')
const dataset = join(examples, 'datasets/support-questions.csv')

/** The A/B test example with its comparison given one candidate, and a scorers step with nothing to compare with. */
function brokenWorkflow(dir: string): string {
  const workflow = JSON.parse(readFileSync(join(examples, 'ab-test.json'), 'utf8')) as { nodes: Array<{ id: string, config: Record<string, unknown> }>, edges: unknown[] }
  workflow.nodes.find(n => n.id === 'judge')!.config.compare_inputs = ['{{steps.a.text}}']
  workflow.nodes.push({ id: 'score', type: 'evaluator', config: { evaluation_type: 'scorers', scorers: [{ type: 'exact-match' }], actual: '{{steps.a.text}}' } } as never)
  workflow.edges.push({ from: 'a', to: 'score' })
  const path = join(dir, 'broken.json')
  writeFileSync(path, JSON.stringify(workflow))
  return path
}

describe('a workflow whose steps would be refused at run time', () => {
  it('validate lists every problem with its node and field, and exits 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-checked-'))
    const { code, out, err } = await cli(['validate', brokenWorkflow(dir)])
    expect(code).toBe(2)
    const { valid, problems } = JSON.parse(out) as { valid: boolean, problems: Array<{ node: string, path: string }> }
    expect(valid).toBe(false)
    expect(problems.map(p => [p.node, p.path])).toEqual([['judge', 'nodes.judge.config.compare_inputs'], ['score', 'nodes.score.config.expected']])
    expect(err).toContain('node "judge": nodes.judge.config.compare_inputs: needs at least 2 candidates, not 1')
    expect(err).toContain('node "score": nodes.score.config.expected: is missing')
  })

  it('test refuses it before any case runs, listing every problem, and exits 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-checked-'))
    const db = join(dir, 'kept.db')
    const report = join(dir, 'report.json')
    const { code, out, err } = await cli(['test', brokenWorkflow(dir), '--dataset', dataset, '--db', db, '--report', report])
    expect(code).toBe(2)
    expect(err.split('\n')).toEqual([
      expect.stringMatching(/^The workflow is invalid: node "judge": nodes\.judge\.config\.compare_inputs: needs at least 2 candidates, not 1.* \(and 1 more problem\)\.$/),
      expect.stringMatching(/^node "score": nodes\.score\.config\.expected: is missing/),
    ])
    // No case ran (no progress line, no summary), and neither the dataset nor a report was kept.
    expect(out).toBe('')
    expect(existsSync(db)).toBe(false)
    expect(existsSync(report)).toBe(false)
  })
})
