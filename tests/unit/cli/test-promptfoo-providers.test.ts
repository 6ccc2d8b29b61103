import { cpSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../../support/cli'
import type { DatasetReport } from '../../../engine/datasets'
import { importPromptfoo } from '../../../engine/datasets'

const parity = resolve(import.meta.dirname, '../../parity/promptfoo/configs')

describe('judgeflow test with promptfoo\'s custom providers', () => {
  it('runs a config\'s JavaScript, Python and exec providers from the files beside it, in the sandbox', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-providers-'))
    for (const name of ['js-provider', 'exec-provider']) cpSync(join(parity, name), join(dir, name), { recursive: true })
    const js = await cli(['test', join(dir, 'js-provider/promptfooconfig.yaml'), '--report', join(dir, 'js.json'), '--max-errors', '2', '--min-pass-rate', '0'], { PATH: process.env.PATH ?? '' })
    expect(js.code, js.err).toBe(0)
    const jsReport = JSON.parse(readFileSync(join(dir, 'js.json'), 'utf8')) as DatasetReport
    expect([jsReport.passed, jsReport.failed, jsReport.errored]).toEqual([6, 2, 2])
    const exec = await cli(['test', join(dir, 'exec-provider/promptfooconfig.yaml'), '--report', join(dir, 'exec.json'), '--max-errors', '2', '--min-pass-rate', '0'], { PATH: process.env.PATH ?? '' })
    expect(exec.code, exec.err).toBe(0)
    const execReport = JSON.parse(readFileSync(join(dir, 'exec.json'), 'utf8')) as DatasetReport
    expect([execReport.passed, execReport.failed, execReport.errored]).toEqual([6, 4, 2])
  })

  it('refuses an exec provider that runs another program than python3 or node, and a file outside the config\'s folder', () => {
    const config = (id: string) => `prompts: ['Q: {{q}}']\nproviders: ['${id}']\ntests: [{ vars: { q: x }, assert: [{ type: contains, value: x }] }]\n`
    expect(() => importPromptfoo(config('exec: ./run.sh'))).toThrow('the promptfoo config, providers[0]: "exec:./run.sh" is not imported: judgeflow runs an exec provider\'s script in its sandbox when the command is python3 <script.py> … or node <script.js> …, not another program')
    expect(() => importPromptfoo(config('file:///etc/provider.py'))).toThrow('providers[0]: "/etc/provider.py" must be a file beside the config (a relative path)')
    const python = importPromptfoo(config('python:lib/provider.py:answer'))
    expect((python.workflow!.nodes as Array<Record<string, any>>).find(n => n.type === 'code')!.config).toEqual({
      python: 'lib/provider.py', promptfoo: { call: 'provider', options: { id: 'python:lib/provider.py:answer' }, function: 'answer', prompt: 'Q: {{input.q}}' },
    })
  })
})
