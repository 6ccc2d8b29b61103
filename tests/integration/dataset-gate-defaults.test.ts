/**
 * One set of gate defaults for every way a dataset runs: `judgeflow test`, the library's `runDataset`
 * and the HTTP API (whose route hands its checked body to `datasets.start`) give the same gates, and
 * so the same verdict, for the same dataset and workflow. As promptfoo: with no pass rate asked for,
 * every case must pass, and no case may error.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../core/config'
import { datasetRunRequestSchema, type DatasetRunRequest } from '../../core/datasets'
import { exitCodeOf, type DatasetGates, type DatasetReport } from '../../engine/datasets'
import { openJudgeflow } from '../../main'
import { parseDataset, runDataset } from '../../main/library'
import { cli } from '../support/cli'

const examples = join(import.meta.dirname, '../../examples')
const workflowFile = join(examples, 'quality-gate.json')
const datasetFile = join(examples, 'datasets/support-questions.csv')
const workflow = JSON.parse(readFileSync(workflowFile, 'utf8')) as Record<string, unknown>
const cases = parseDataset(readFileSync(datasetFile, 'utf8'), 'csv')
const name = 'support-questions'

async function byCli(flags: string[]): Promise<DatasetReport> {
  const file = join(mkdtempSync(join(tmpdir(), 'judgeflow-gates-')), 'report.json')
  const { code } = await cli(['test', workflowFile, '--dataset', datasetFile, '--report', file, ...flags])
  const report = JSON.parse(readFileSync(file, 'utf8')) as DatasetReport
  expect(code).toBe(exitCodeOf(report))
  return report
}

/** As `POST /api/dataset-runs` runs it: the body checked by the request's schema, then started. */
async function byApi(gates?: DatasetGates): Promise<DatasetReport> {
  const app = openJudgeflow({ ...loadConfig({}), db: { ...loadConfig({}).db, url: undefined, path: ':memory:' } })
  try {
    await app.store.workflows.create({ ...workflow, name: 'Quality gate' })
    await app.store.datasets.create(name, cases)
    const body: DatasetRunRequest = { dataset: name, target: { workflow_id: 'Quality gate' }, ...(gates ? { gates } : {}) }
    const started = await app.datasets.start(datasetRunRequestSchema.parse(body))
    await app.datasets.whenDone(started.id)
    return (await app.store.datasets.getRun(started.id))!.report as unknown as DatasetReport
  }
  finally {
    await app.close(0)
  }
}

const gatesOf = (report: DatasetReport) => report.gates.map(g => [g.gate, g.required, g.actual, g.passed])

describe('the gate defaults, the same for the CLI, the library and the API', () => {
  it('with no gate asked for: every case must pass and none may error, so 7 failed cases fail the run everywhere', async () => {
    const expected = [['min_pass_rate', 1, 0.4167, false], ['max_errors', 0, 0, true]]
    const fromCli = await byCli([])
    const fromLibrary = await runDataset({ workflow, cases, name, config: loadConfig({}) })
    const fromApi = await byApi()
    for (const report of [fromCli, fromLibrary, fromApi]) {
      expect([report.passed, report.failed, report.errored]).toEqual([5, 7, 0])
      expect(gatesOf(report)).toEqual(expected)
      expect(exitCodeOf(report)).toBe(1)
    }
  })

  it('with another gate asked for, the pass rate still defaults to every case; a pass rate asked for is kept', async () => {
    const kappaOnly = [await byCli(['--min-kappa', '0.5']), await runDataset({ workflow, cases, name, config: loadConfig({}), gates: { min_kappa: 0.5 } }), await byApi({ min_kappa: 0.5 })]
    for (const report of kappaOnly) {
      expect(gatesOf(report).map(g => g.slice(0, 2))).toEqual([['min_pass_rate', 1], ['min_kappa', 0.5], ['max_errors', 0]])
    }
    const lenient = [await byCli(['--min-pass-rate', '0.4']), await runDataset({ workflow, cases, name, config: loadConfig({}), gates: { min_pass_rate: 0.4 } }), await byApi({ min_pass_rate: 0.4 })]
    for (const report of lenient) {
      expect(gatesOf(report)).toEqual([['min_pass_rate', 0.4, 0.4167, true], ['max_errors', 0, 0, true]])
      expect(exitCodeOf(report)).toBe(0)
    }
  })
})
