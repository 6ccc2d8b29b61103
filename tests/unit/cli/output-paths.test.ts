import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../../support/cli'
import { checkOutputFiles, writeOutputFile } from '../../../cli/output-paths'
import { openDatabase } from '../../../db'
import { JudgeflowError } from '../../../engine'

function refusal(work: () => void): string {
  try {
    work()
  }
  catch (error) {
    expect(error).toBeInstanceOf(JudgeflowError)
    return (error as Error).message
  }
  throw new Error('expected a refusal')
}

describe('output paths', () => {
  it('a command that creates its folders needs only the nearest existing folder to be writable', () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-out-'))
    expect(() => checkOutputFiles([{ path: join(dir, 'a', 'b', 'out.json'), flag: '--out' }], { createsFolders: true })).not.toThrow()
    expect(refusal(() => checkOutputFiles([{ path: join(dir, 'a', 'b', 'out.json'), flag: '--out' }]))).toBe(`--out "${join(dir, 'a', 'b', 'out.json')}" cannot be written: the folder "${join(dir, 'a', 'b')}" does not exist.`)
  })

  it('a link put in place of a checked output after the check is refused, not followed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-out-'))
    writeFileSync(join(dir, 'precious.txt'), 'keep me')
    symlinkSync(join(dir, 'precious.txt'), join(dir, 'out.json'))
    expect(refusal(() => writeOutputFile(join(dir, 'out.json'), '{}', '--report'))).toBe(`--report "${join(dir, 'out.json')}" cannot be written: it is a symbolic link.`)
    expect(readFileSync(join(dir, 'precious.txt'), 'utf8')).toBe('keep me')
    writeOutputFile(join(dir, 'new.json'), '{}', '--report')
    expect(readFileSync(join(dir, 'new.json'), 'utf8')).toBe('{}')
  })
})

describe('other commands that write files check them first', () => {
  it('experiment run refuses --judgments over the experiment file before any variant runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-out-'))
    writeFileSync(join(dir, 'reviewer.json'), JSON.stringify({ name: 'Reviewer', nodes: [{ id: 'in', type: 'input' }, { id: 'review', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Review: {{input.document}}' } }], edges: [{ from: 'in', to: 'review' }] }))
    const experiment = JSON.stringify({
      name: 'round', target: { workflow_file: 'reviewer.json', node: 'review' }, judge_model: 'openai:gpt-4o-mini', current_best: 'a',
      variants: [{ id: 'a' }, { id: 'b', config: { prompt: 'Careful: {{input.document}}' } }],
      documents: [{ id: 'd1', text: 'one', problems: [{ id: 'P1', category: 'main' }] }],
    })
    const path = join(dir, 'experiment.json')
    writeFileSync(path, experiment)
    expect(await cli(['experiment', 'run', path, '--judgments', path])).toEqual({ code: 2, out: '', err: `--judgments "${path}" is the experiment file "${path}", which this command reads: name another file to write.` })
    expect(readFileSync(path, 'utf8')).toBe(experiment)
  })

  it('backup refuses a target that is a symbolic link, or the database by another name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-out-'))
    openDatabase(join(dir, 'judgeflow.db')).close()
    writeFileSync(join(dir, 'precious.txt'), 'keep me')
    symlinkSync(join(dir, 'precious.txt'), join(dir, 'backup.db'))
    expect(await cli(['backup', join(dir, 'backup.db'), '--db', join(dir, 'judgeflow.db')])).toEqual({ code: 2, out: '', err: `the backup file "${join(dir, 'backup.db')}" is a symbolic link: name the file itself, not a link to it.` })
    symlinkSync(join(dir, 'judgeflow.db'), join(dir, 'db-link'))
    expect((await cli(['backup', join(dir, 'judgeflow.db'), '--db', join(dir, 'db-link')])).err).toBe(`the backup file "${join(dir, 'judgeflow.db')}" is the database "${join(dir, 'db-link')}", which this command reads: name another file to write.`)
    expect(readFileSync(join(dir, 'precious.txt'), 'utf8')).toBe('keep me')
  })
})
