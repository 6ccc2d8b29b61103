import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { cli } from '../../support/cli'

const examples = join(import.meta.dirname, '../../../examples')
const gate = join(examples, 'quality-gate.json')
const deep = `${'['.repeat(3000)}${']'.repeat(3000)}`
const limit = /nests objects and arrays more than 64 levels deep \(at .+\): flatten it, or raise JUDGEFLOW_MAX_JSON_DEPTH/

function files(contents: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'judgeflow-nested-'))
  for (const [name, text] of Object.entries(contents)) writeFileSync(join(dir, name), text)
  return dir
}

it('every command that reads a file refuses one nested past the limit with exit 2, naming the file and the limit', async () => {
  const dir = files({
    'deep.json': deep,
    'deep.yaml': `- input: ${deep}\n`,
    'deep.jsonl': `{"input":${deep}}\n`,
    'promptfoo.yaml': `tests:\n  - vars: ${deep}\n`,
    'promptfoo-tests.yaml': 'tests: file://tests.jsonl\n',
    'tests.jsonl': `{"vars":${deep}}\n`,
    'experiment.yaml': `name: x\ndocuments: ${deep}\n`,
    'suite.toml': `[llm_default]\nmodel = "local:heuristic"\nx = ${deep}\n`,
    'input.json': '{"content":"hi"}',
  })
  const at = (name: string) => join(dir, name)
  const runs = [
    [['test', gate, '--dataset', at('deep.json')], `the dataset file "${at('deep.json')}" nests`],
    [['test', gate, '--dataset', at('deep.yaml')], `the dataset file "${at('deep.yaml')}" nests objects and arrays more than 64 levels deep (at line 1, column`],
    [['test', gate, '--dataset', at('deep.jsonl')], 'line 1, (row): nests'],
    [['import', 'promptfoo', at('promptfoo.yaml'), '--out', at('out')], 'the promptfoo config nests objects and arrays more than 64 levels deep (at line 2, column'],
    [['import', 'promptfoo', at('promptfoo-tests.yaml'), '--out', at('out')], 'the tests file "tests.jsonl", line 1 nests'],
    [['experiment', 'run', at('experiment.yaml')], `The experiment file "${at('experiment.yaml')}" nests objects and arrays more than 64 levels deep (at line 2, column`],
    [['eval', '--config', at('suite.toml'), '--input', at('input.json')], `the config file "${at('suite.toml')}" nests objects and arrays more than 64 levels deep (at line 3, column`],
    [['run', at('deep.json')], `The workflow file "${at('deep.json')}" nests`],
  ] as const
  for (const [args, where] of runs) {
    for (let attempt = 0; attempt < 2; attempt++) {
      const result = await cli([...args])
      expect(result, args.join(' ')).toMatchObject({ code: 2, err: expect.stringContaining(where) })
      expect(result.err).toMatch(limit)
      expect(result.err).not.toMatch(/call stack|failed unexpectedly/)
    }
  }
})

it('the limit is JUDGEFLOW_MAX_JSON_DEPTH, for YAML as for JSON', async () => {
  const dir = files({ 'five.yaml': '- id: a\n  input: { q: [[[x]]] }\n' })
  expect((await cli(['test', gate, '--dataset', join(dir, 'five.yaml')], { JUDGEFLOW_MAX_JSON_DEPTH: '4' })).err).toContain('more than 4 levels deep (at line 2, column 16)')
})

it('a YAML alias bomb is refused naming the alias limit, in every YAML the CLI reads', async () => {
  const levels = 'abcdefghi'.split('')
  const bomb = levels.map((name, i) => `${name}: &${name} [${Array(9).fill(i ? `*${levels[i - 1]}` : '"lol"').join(', ')}]`).join('\n')
  const dir = files({ 'lol.yaml': bomb, 'experiment.yaml': bomb, 'promptfoo.yaml': bomb })
  for (const args of [['test', gate, '--dataset', join(dir, 'lol.yaml')], ['experiment', 'run', join(dir, 'experiment.yaml')], ['import', 'promptfoo', join(dir, 'promptfoo.yaml'), '--out', join(dir, 'out')]]) {
    expect(await cli(args)).toMatchObject({ code: 2, err: expect.stringContaining('repeats values through aliases (*name) beyond the limit of 100 alias expansions') })
  }
})
