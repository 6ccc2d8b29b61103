import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { globFiles } from '../../../cli/file-glob'
import { importPromptfoo } from '../../../engine/datasets'

const folder = mkdtempSync(join(tmpdir(), 'judgeflow-glob-'))
for (const path of ['vars/b.txt', 'vars/a.txt', 'vars/.hidden.txt', 'vars/notes.md', 'vars/deep/c.txt', 'vars/deep/deeper/d.txt']) {
  mkdirSync(join(folder, path, '..'), { recursive: true })
  writeFileSync(join(folder, path), `  text of ${path}\n`)
}
afterAll(() => rmSync(folder, { recursive: true, force: true }))

describe('file:// globs in promptfoo vars', () => {
  it('lists the files a glob matches beside the config, sorted: * and ? within a name, ** across folders, no dot files', () => {
    expect(globFiles(folder, 'vars/*.txt')).toEqual(['vars/a.txt', 'vars/b.txt'])
    expect(globFiles(folder, './vars/?.txt')).toEqual(['vars/a.txt', 'vars/b.txt'])
    expect(globFiles(folder, 'vars/**/*.txt')).toEqual(['vars/a.txt', 'vars/b.txt', 'vars/deep/c.txt', 'vars/deep/deeper/d.txt'])
    expect(globFiles(folder, 'vars/*')).toEqual(['vars/a.txt', 'vars/b.txt', 'vars/notes.md'])
    expect(globFiles(folder, 'nothing/*.txt')).toEqual([])
    expect(() => globFiles(folder, 'vars/{a,b}.txt')).toThrow('braces and [classes] are not read')
  })

  it('runs the test once per matched file, its var holding the file\'s trimmed text; refuses a glob that matches nothing, or with no files to read', () => {
    const config = (answer: string) => `prompts: ['{{answer}}']\nproviders: [openai:chat:gpt-4o-mini]\ntests:\n  - description: each\n    vars: { answer: '${answer}' }\n    assert: [{ type: contains, value: text }]`
    const files = { readFile: (path: string) => `  text of ${path}\n`, listFiles: (pattern: string) => globFiles(folder, pattern) }
    const imported = importPromptfoo(config('file://vars/*.txt'), files)
    expect(imported.cases.map(c => [c.id, c.input.answer])).toEqual([['each', 'text of vars/a.txt'], ['each (2)', 'text of vars/b.txt']])
    expect(() => importPromptfoo(config('file://none/*.txt'), files)).toThrow('tests[0].vars.answer: no file matches "none/*.txt" (beside the config); promptfoo refuses it too.')
    expect(() => importPromptfoo(config('file://vars/*.txt'), { readFile: files.readFile })).toThrow('"file://vars/*.txt" is a file reference, which only the command line reads')
  })
})
