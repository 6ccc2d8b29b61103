/**
 * judgeflow's verdicts on the parity configs, compared with promptfoo's own (recorded/*.json, by
 * `npm run parity:record`), against the same fake LLM. Each config either runs and gives promptfoo's
 * verdict on every test × prompt × provider (and each assertion's), or is refused at import with the
 * reason listed in REFUSED — the README's "Coming from promptfoo" table says the same.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProviders, runWorkflow } from '../../../engine'
import { importPromptfoo, type PromptfooImport } from '../../../engine/datasets'
import { createScriptRunner } from '../../../engine/sandbox'
import type { AssertionGrade } from '../../../engine/assertions/types'
import type { FakeLLM } from '../../support/fake-llm'
import { startParityServer } from './fake-server'
import type { ParityRecording, RecordedAssertion, RecordedResult } from './recording'
import { testDeps } from '../../support/workflows'

const root = import.meta.dirname

/** The configs judgeflow refuses, and why (each reason is a piece of the refusal). */
export const REFUSED: Record<string, RegExp> = {
  grid: /providers\[1\]: Unrecognized key: "transform"/,
}

let fake: FakeLLM
beforeAll(async () => {
  fake = await startParityServer()
})
afterAll(async () => {
  await fake.stop()
})

interface Outcome {
  verdict: 'pass' | 'fail' | 'error'
  assertions: AssertionGrade[]
  error?: string
}

async function runCase(imported: PromptfooImport, input: Record<string, unknown>): Promise<Outcome> {
  const { options } = testDeps()
  const env = { OPENAI_API_KEY: 'sk-parity', OPENAI_BASE_URL: fake.openaiBaseURL }
  const result = await runWorkflow(imported.workflow!, {
    ...options,
    providers: createProviders({ env, retry: { baseDelayMs: 1, maxDelayMs: 5, maxRetries: 0 } }),
    evaluation: { scripts: createScriptRunner({ timeoutMs: 5000, memoryMb: 128, searchPath: process.env.PATH ?? '' }) },
    input,
  })
  if (result.status !== 'succeeded') {
    const failed = Object.values(result.steps).find(step => step.status === 'failed')
    return { verdict: 'error', assertions: [], error: failed?.error?.message ?? result.error?.message }
  }
  const judge = Object.entries(result.steps).find(([id, step]) => (id === 'judge' || id.endsWith('_judge')) && step.status === 'succeeded')
  const output = judge?.[1].output as { passed: boolean, assertions: AssertionGrade[] } | undefined
  if (!output) return { verdict: 'error', assertions: [], error: 'no judge ran' }
  return { verdict: output.passed ? 'pass' : 'fail', assertions: output.assertions }
}

const theirVerdict = (row: RecordedResult) => (row.success ? 'pass' : row.failureReason === 2 ? 'error' : 'fail')

/** promptfoo lists an assert-set's members again after it; judgeflow keeps them inside the set only. */
function topLevel(assertions: RecordedAssertion[]): RecordedAssertion[] {
  const out: RecordedAssertion[] = []
  for (let i = 0; i < assertions.length; i++) {
    out.push(assertions[i]!)
    if (assertions[i]!.components) i += assertions[i]!.components!.length
  }
  return out
}

/** Each difference between the two tools on one row, naming the test, the assertion and both verdicts. */
function differences(row: RecordedResult, ours: Outcome): string[] {
  const where = `test ${row.testIdx} "${row.description}" (${row.prompt} · ${row.provider})`
  const found: string[] = []
  if (theirVerdict(row) !== ours.verdict) found.push(`${where}: promptfoo ${theirVerdict(row)}, judgeflow ${ours.verdict}${ours.error ? ` (${ours.error})` : ''}`)
  if (ours.verdict === 'error' || row.failureReason === 2) return found
  const theirs = topLevel(row.assertions)
  theirs.forEach((assertion, i) => {
    const mine = ours.assertions[i]
    if (!mine) found.push(`${where}, assertion ${i} (${assertion.type}): promptfoo ${assertion.pass ? 'pass' : 'fail'}, judgeflow has none`)
    else if (mine.pass !== assertion.pass) found.push(`${where}, assertion ${i} (${assertion.type}): promptfoo ${assertion.pass ? 'pass' : 'fail'} (${assertion.reason}), judgeflow ${mine.pass ? 'pass' : 'fail'} (${mine.reason})`)
  })
  return found
}

const configs = readdirSync(join(root, 'configs')).sort()

describe('promptfoo parity: judgeflow gives promptfoo\'s verdicts on the same configs and the same model answers', () => {
  it('has a recording for every config', () => {
    expect(readdirSync(join(root, 'recorded')).sort()).toEqual(configs.map(c => `${c}.json`))
  })

  for (const name of configs) {
    it(name, async () => {
      const dir = join(root, 'configs', name)
      const recording = JSON.parse(readFileSync(join(root, 'recorded', `${name}.json`), 'utf8')) as ParityRecording
      let imported: PromptfooImport
      try {
        imported = importPromptfoo(readFileSync(join(dir, 'promptfooconfig.yaml'), 'utf8'), { readFile: path => readFileSync(resolve(dir, path), 'utf8') })
      }
      catch (error) {
        expect(REFUSED[name], `${name} was refused: ${(error as Error).message}`).toBeDefined()
        expect((error as Error).message).toMatch(REFUSED[name]!)
        return
      }
      expect(REFUSED[name], `${name} is listed as refused, but it imports`).toBeUndefined()
      // promptfoo repeats a test as consecutive copies (evaluateOptions.repeat); judgeflow runs each case that many times.
      const repeat = imported.run.repeat ?? 1
      const cells = (imported.workflow!.nodes as Array<{ type: string }>).filter(node => node.type === 'llm').length
      expect(imported.cases.length * repeat, `${name}: judgeflow has ${imported.cases.length} cases × ${repeat}, promptfoo ${recording.results.length} results`).toBe(recording.results.length)
      const found: string[] = []
      for (const [k, row] of recording.results.entries()) {
        const test = Math.floor(Math.floor(k / cells) / repeat)
        found.push(...differences(row, await runCase(imported, imported.cases[test * cells + (k % cells)]!.input)))
      }
      expect(found).toEqual([])
    })
  }
})
