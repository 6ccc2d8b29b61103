import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse as parseCsv } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cli } from '../../support/cli'
import type { DatasetReport } from '../../../engine/datasets'
import { FakeLLM, lastUserText } from '../../support/fake-llm'

/** The model answers what follows "ECHO:" in its prompt. */
const fake = new FakeLLM()
beforeAll(async () => {
  await fake.start()
  fake.onRequest(request => ({ text: lastUserText(request).split('ECHO:').at(-1)!.trim() }))
})
afterAll(async () => {
  await fake.stop()
})

const config = `description: Files
prompts:
  - "Say it. ECHO:{{answer}}"
providers:
  - openai:chat:gpt-quiet
tests:
  - description: greeting
    vars: { answer: hello there }
    assert:
      - { type: contains, value: hello }
  - description: hostile
    vars: { answer: '=cmd <script>alert(1)</script>' }
    assert:
      - { type: icontains, value: script }
      - { type: contains, value: refund }
`

describe('judgeflow test --html --csv --jsonl', () => {
  it('writes the HTML report, the results as CSV and as JSONL, each saying why a case failed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-files-'))
    writeFileSync(join(dir, 'promptfooconfig.yaml'), config)
    const files = { html: join(dir, 'r.html'), csv: join(dir, 'r.csv'), jsonl: join(dir, 'r.jsonl'), report: join(dir, 'r.json') }
    const run = await cli(['test', join(dir, 'promptfooconfig.yaml'), '--html', files.html, '--csv', files.csv, '--jsonl', files.jsonl, '--report', files.report], fake.env())
    expect(run.out).toContain('Files: 1 passed, 1 failed, 0 errored of 2 cases')
    expect(run.code).toBe(1)
    const report = JSON.parse(readFileSync(files.report, 'utf8')) as DatasetReport

    const html = readFileSync(files.html, 'utf8')
    expect(html).toMatch(/^<!DOCTYPE html>/)
    expect(html).toContain('<td class="failed">fail</td><td class="num">0.5</td><td>contains</td><td><pre>contains: Expected output to contain &quot;refund&quot;</pre></td><td><pre>=cmd &lt;script&gt;alert(1)&lt;/script&gt;</pre></td>')
    expect(html).not.toContain('<script>alert')

    const rows = parseCsv(readFileSync(files.csv, 'utf8')) as string[][]
    expect(rows.map(r => r.slice(0, 4))).toEqual([
      ['case_id', 'repeat', 'status', 'verdict'],
      ['greeting', '1', 'succeeded', 'pass'],
      ['hostile', '1', 'succeeded', 'fail'],
    ])
    expect(rows[2]!.slice(6)).toEqual(['contains', 'contains: Expected output to contain "refund"', '\'=cmd <script>alert(1)</script>'])

    const lines = readFileSync(files.jsonl, 'utf8').trimEnd().split('\n').map(line => JSON.parse(line))
    expect(lines).toEqual(report.results)
  })

  it('prints a Markdown table of the failed cases with their input', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-files-'))
    writeFileSync(join(dir, 'promptfooconfig.yaml'), config)
    const run = await cli(['test', join(dir, 'promptfooconfig.yaml'), '--markdown'], fake.env())
    expect(run.out).toMatch(/\| `hostile` \| failed \(score 0\.5\) \| answer: =cmd \\<script\\>alert\(1\)\\<\/script\\>[^|]*\|  \| =cmd \\<script\\>alert\(1\)\\<\/script\\> \| contains: Expected output to contain "refund" \|/)
  })

  it('refuses an output that is an input, or one that another output names, before any case runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgeflow-files-'))
    const file = join(dir, 'promptfooconfig.yaml')
    writeFileSync(file, config)
    fake.requests.length = 0
    for (const flag of ['--html', '--csv', '--jsonl']) {
      const refused = await cli(['test', file, flag, file], fake.env())
      expect(refused.code).toBe(2)
      expect(refused.err).toMatch(new RegExp(`^${flag} ".*promptfooconfig\\.yaml" is the promptfoo config`))
    }
    expect((await cli(['test', file, '--csv', join(dir, 'x'), '--jsonl', join(dir, 'x')], fake.env())).err).toBe(`--jsonl "${join(dir, 'x')}" is also where --csv goes: name a different file for each.`)
    expect(readFileSync(file, 'utf8')).toBe(config)
    expect(existsSync(join(dir, 'x'))).toBe(false)
    expect(fake.requests).toHaveLength(0)
  })
})
