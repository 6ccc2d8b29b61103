/**
 * judgeflow's verdicts on the parity configs, compared with promptfoo's own (recorded/*.json, by
 * `npm run parity:record`), against the same fake LLM. Each config either runs and gives promptfoo's
 * verdict on every test × prompt × provider (and each assertion's), or is refused at import with the
 * reason listed in REFUSED — the README's "Coming from promptfoo" table says the same.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProviders, openHttpAccess, runWorkflow } from '../../../engine'
import { comparisonRun, importPromptfoo, selectionsOf, settleComparisons, type CaseResult, type ComparisonGroup, type ComparisonOutcome, type PromptfooImport } from '../../../engine/datasets'
import type { AwaitingComparison } from '../../../engine/assertions/types'
import { createScriptRunner } from '../../../engine/sandbox'
import { globFiles } from '../../../cli/file-glob'
import type { AssertionGrade } from '../../../engine/assertions/types'
import type { FakeLLM } from '../../support/fake-llm'
import { startParityServer } from './fake-server'
import { type ProductServer, startProductServer, withProductUrl } from './product-server'
import type { ParityRecording, RecordedAssertion, RecordedResult } from './recording'
import { testDeps } from '../../support/workflows'

const root = import.meta.dirname

/** The configs judgeflow refuses, and why (each reason is a piece of the refusal). */
export const REFUSED: Record<string, RegExp> = {}

let fake: FakeLLM
let product: ProductServer
beforeAll(async () => {
  fake = await startParityServer()
  product = await startProductServer()
})
afterAll(async () => {
  await fake.stop()
  await product.stop()
})

interface Outcome {
  verdict: 'pass' | 'fail' | 'error'
  /** The test's score (after a comparison, the score promptfoo merges it into). */
  score?: number
  /** The test's score by metric (promptfoo's namedScores). */
  namedScores?: Record<string, number>
  assertions: AssertionGrade[]
  error?: string
  /** select-best, decided over the test's cells once they all ran. */
  awaiting?: AwaitingComparison
}

/** The config's folder: the files its code providers name are found there, as promptfoo finds them. */
let configDir: string | undefined

function run(definition: Record<string, unknown>, input: Record<string, unknown>) {
  const { options } = testDeps()
  const env = { OPENAI_API_KEY: 'sk-parity', OPENAI_BASE_URL: fake.openaiBaseURL }
  return runWorkflow(definition, {
    ...options,
    providers: createProviders({ env, retry: { baseDelayMs: 1, maxDelayMs: 5, maxRetries: 0 } }),
    evaluation: { http: openHttpAccess(), configDir, scripts: createScriptRunner({ timeoutMs: 5000, memoryMb: 128, maxProcesses: 32, searchPath: process.env.PATH ?? '', isolation: 'require' }) },
    input,
  })
}

/** A comparison of a test's cells, run as the dataset run runs it. */
async function runComparison(group: ComparisonGroup): Promise<ComparisonOutcome> {
  const { definition, input } = comparisonRun(group)
  const result = await run(definition, input)
  if (result.status !== 'succeeded') return { error: result.steps.compare?.error?.message ?? result.error?.message ?? 'the comparison failed' }
  const selections = selectionsOf(result.steps.compare!.output, group.members.length)
  return typeof selections === 'string' ? { error: selections } : { run_id: 'compare', selections }
}

/** The outcomes with their comparisons decided (select-best), the comparison's grade in place of the waiting one. */
async function settle(imported: PromptfooImport, runs: Array<{ caseIndex: number, repeat: number, outcome: Outcome }>): Promise<void> {
  const results: CaseResult[] = runs.map(({ caseIndex, repeat, outcome }) => ({
    case_id: imported.cases[caseIndex]!.id, repeat, status: outcome.verdict === 'error' ? 'errored' : 'succeeded',
    ...(outcome.verdict === 'error' ? {} : { verdict: outcome.verdict }), ...(outcome.awaiting ? { awaiting_comparison: outcome.awaiting } : {}),
  }))
  for (const settled of await settleComparisons(results, imported.cases, runComparison)) {
    const { outcome } = runs[results.findIndex(r => r.case_id === settled.case_id && r.repeat === settled.repeat)]!
    const check = settled.checks?.at(-1)
    outcome.verdict = settled.status === 'errored' ? 'error' : settled.verdict!
    outcome.error = settled.error ?? undefined
    outcome.score = settled.score ?? undefined
    outcome.assertions = outcome.assertions.map(a => (a.awaiting && check ? { ...a, pass: check.passed === true, score: check.score ?? 0, reason: check.reason ?? '', awaiting: undefined } : a))
  }
}

async function runCase(imported: PromptfooImport, input: Record<string, unknown>): Promise<Outcome> {
  const result = await run(imported.workflow!, input)
  if (result.status !== 'succeeded') {
    const failed = Object.values(result.steps).find(step => step.status === 'failed')
    return { verdict: 'error', assertions: [], error: failed?.error?.message ?? result.error?.message }
  }
  const judge = Object.entries(result.steps).find(([id, step]) => (id === 'judge' || id.endsWith('_judge')) && step.status === 'succeeded')
  interface JudgeOutput {
    passed: boolean
    overall_score: number
    named_scores: Record<string, number>
    assertions: AssertionGrade[]
    awaiting_comparison?: AwaitingComparison
  }
  const output = judge?.[1].output as JudgeOutput | undefined
  if (!output) return { verdict: 'error', assertions: [], error: 'no judge ran' }
  return { verdict: output.passed ? 'pass' : 'fail', score: output.overall_score, namedScores: output.named_scores, assertions: output.assertions, awaiting: output.awaiting_comparison }
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

/** Scores agree up to this (embeddings reach the two tools as float32 and float64). */
const SCORE_TOLERANCE = 1e-3

/** Each difference between the two tools on one row, naming the test, the assertion and both verdicts. */
function differences(row: RecordedResult, ours: Outcome): string[] {
  const where = `test ${row.testIdx} "${row.description}" (${row.prompt} · ${row.provider})`
  const found: string[] = []
  if (theirVerdict(row) !== ours.verdict) found.push(`${where}: promptfoo ${theirVerdict(row)}, judgeflow ${ours.verdict}${ours.error ? ` (${ours.error})` : ''}`)
  if (ours.verdict === 'error' || row.failureReason === 2) return found
  if (ours.score === undefined || Math.abs(ours.score - row.score) > SCORE_TOLERANCE) found.push(`${where}: promptfoo scores ${row.score}, judgeflow ${ours.score}`)
  const theirs = topLevel(row.assertions)
  theirs.forEach((assertion, i) => {
    const mine = ours.assertions[i]
    if (!mine) found.push(`${where}, assertion ${i} (${assertion.type}): promptfoo ${assertion.pass ? 'pass' : 'fail'}, judgeflow has none`)
    else if (mine.pass !== assertion.pass) found.push(`${where}, assertion ${i} (${assertion.type}): promptfoo ${assertion.pass ? 'pass' : 'fail'} (${assertion.reason}), judgeflow ${mine.pass ? 'pass' : 'fail'} (${mine.reason})`)
    // An assert-set's members, or the parts a script's grade returned (componentResults): listed one by one.
    const parts = (assertion.components ?? []).map(c => `${c.pass ? 'pass' : 'fail'} ${c.score}`).join(', ')
    const mineParts = (mine?.components ?? []).map(c => `${c.pass ? 'pass' : 'fail'} ${c.score}`).join(', ')
    if (mine && parts !== mineParts) found.push(`${where}, assertion ${i} (${assertion.type}): promptfoo's parts [${parts}], judgeflow's [${mineParts}]`)
  })
  const named = (scores: Record<string, number> | undefined) => Object.entries(scores ?? {}).sort(([a], [b]) => a.localeCompare(b))
  const mineNamed = new Map(named(ours.namedScores))
  const theirNamed = named(row.namedScores)
  const agrees = ([metric, score]: [string, number]) => Math.abs((mineNamed.get(metric) ?? Number.NaN) - score) <= SCORE_TOLERANCE
  if (theirNamed.length !== mineNamed.size || !theirNamed.every(agrees)) {
    found.push(`${where}: promptfoo's named scores ${JSON.stringify(Object.fromEntries(theirNamed))}, judgeflow's ${JSON.stringify(Object.fromEntries(mineNamed))}`)
  }
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
      configDir = dir
      const recording = JSON.parse(readFileSync(join(root, 'recorded', `${name}.json`), 'utf8')) as ParityRecording
      let imported: PromptfooImport
      try {
        // grader.txt: the config was recorded with `promptfoo eval --grader <it>`.
        const judge = existsSync(join(dir, 'grader.txt')) ? readFileSync(join(dir, 'grader.txt'), 'utf8').trim() : undefined
        const files = { readFile: (path: string) => readFileSync(resolve(dir, path), 'utf8'), listFiles: (pattern: string) => globFiles(dir, pattern) }
        imported = importPromptfoo(withProductUrl(readFileSync(join(dir, 'promptfooconfig.yaml'), 'utf8'), product), { ...files, judge })
      }
      catch (error) {
        expect(REFUSED[name], `${name} was refused: ${(error as Error).message}`).toBeDefined()
        expect((error as Error).message).toMatch(REFUSED[name]!)
        return
      }
      expect(REFUSED[name], `${name} is listed as refused, but it imports`).toBeUndefined()
      // promptfoo repeats a test as consecutive copies (evaluateOptions.repeat); judgeflow runs each case that many times.
      const repeat = imported.run.repeat ?? 1
      // A run keys its results by case id: two cells under one id would be run as one.
      expect(new Set(imported.cases.map(c => c.id)).size, `${name}: case ids repeat`).toBe(imported.cases.length)
      const cells = (imported.workflow!.nodes as Array<{ type: string }>).filter(node => ['llm', 'http', 'code'].includes(node.type)).length
      expect(imported.cases.length * repeat, `${name}: judgeflow has ${imported.cases.length} cases × ${repeat}, promptfoo ${recording.results.length} results`).toBe(recording.results.length)
      const runs: Array<{ caseIndex: number, repeat: number, outcome: Outcome }> = []
      for (const k of recording.results.keys()) {
        const test = Math.floor(Math.floor(k / cells) / repeat)
        const caseIndex = test * cells + (k % cells)
        runs.push({ caseIndex, repeat: (Math.floor(k / cells) % repeat) + 1, outcome: await runCase(imported, imported.cases[caseIndex]!.input) })
      }
      await settle(imported, runs)
      const found = recording.results.flatMap((row, k) => differences(row, runs[k]!.outcome))
      expect(found).toEqual([])
    })
  }
})
