import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from '../../../cli/main'

describe('judgeflow experiment run with a target node the workflow does not have', () => {
  it('says which node is missing and which there are, exit 2 (not "failed unexpectedly")', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-round-'))
    writeFileSync(join(dir, 'reviewer.json'), JSON.stringify({ name: 'Reviewer', nodes: [{ id: 'in', type: 'input' }, { id: 'review', type: 'output' }], edges: [{ from: 'in', to: 'review' }] }))
    writeFileSync(join(dir, 'experiment.json'), JSON.stringify({
      name: 'x', target: { workflow_file: 'reviewer.json', node: 'reveiw' }, judge_model: 'local:heuristic', current_best: 'a',
      variants: [{ id: 'a' }], documents: [{ id: 'd1', text: 'one', problems: [{ id: 'P1', category: 'main' }] }],
    }))
    const err: string[] = []
    const code = await main(['experiment', 'run', join(dir, 'experiment.json')], { out: () => {}, err: text => err.push(text) }, {})
    expect(code).toBe(2)
    expect(err).toEqual(['target.node: workflow "Reviewer" has no node "reveiw" (nodes: in, review)'])
  })
})
