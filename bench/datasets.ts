import { buildDatasetReport, datasetReportToJunit, datasetReportToMarkdown, mulberry32, type CaseResult, type DatasetCase } from '../engine/datasets'
import { benchDatasetReportPage } from './dataset-report-page'
import { median, report } from './lib'

/** A 10,000-case dataset run's report: every case labelled, so agreement and its κ bootstrap are computed, against a baseline. */
export async function benchDatasets() {
  const n = 10_000
  const random = mulberry32(1)
  const cases: DatasetCase[] = Array.from({ length: n }, (_, i) => ({
    id: `q${i}`, input: { question: `question ${i}` }, tags: [`tag${i % 12}`],
    expected: { verdict: random() < 0.7 ? 'pass' : 'fail', score: Math.round(random() * 100) / 100 },
  }))
  const resultsOf = (shift: number): CaseResult[] => cases.map((c, i) => {
    const score = Math.min(1, Math.max(0, c.expected!.score! + (random() - 0.5) * 0.4 + shift))
    return i % 500 === 7
      ? { case_id: c.id, repeat: 1, status: 'errored', error: 'provider down', latency_ms: 30_000 }
      : { case_id: c.id, repeat: 1, status: 'succeeded', verdict: score >= 0.5 ? 'pass' : 'fail', score, confidence: random(), run_id: `r${i}`, latency_ms: 200 + random() * 800, tokens: { input: 400, output: 120 } }
  })
  const dataset = { id: 'd1', name: 'bench', version: 1, cases }
  const baseline = buildDatasetReport({ dataset, target: { evaluator: true }, results: resultsOf(0.02), dataset_run_id: 'before' })
  const results = resultsOf(0)
  const gates = { min_pass_rate: 0.9, min_kappa: 0.6, no_regressions: true, max_errors: 50 }

  const times: number[] = []
  let built = baseline
  for (let i = 0; i < 8; i++) {
    const t0 = performance.now()
    built = buildDatasetReport({ dataset, target: { evaluator: true }, results, baseline, gates })
    times.push(performance.now() - t0)
  }
  report({ name: 'dataset report of 10,000 labelled cases (agreement with a 1,000-resample κ bootstrap, 2,000-resample mean bootstrap, baseline), first build', value: times[0]!, unit: 'ms', target: '<= 1000' })
  report({ name: 'dataset report of 10,000 labelled cases, median of 7 more builds', value: median(times.slice(1)), unit: 'ms', target: '<= 1000' })

  const t0 = performance.now()
  datasetReportToMarkdown(built)
  datasetReportToJunit(built)
  report({ name: 'that report as Markdown and JUnit XML', value: performance.now() - t0, unit: 'ms', target: 'reported' })

  await benchDatasetReportPage(cases, baseline, built)
}
