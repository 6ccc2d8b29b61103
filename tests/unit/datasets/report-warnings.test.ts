import { describe, expect, it } from 'vitest'
import { buildDatasetReport, datasetReportToHtml, datasetReportToJunit, datasetReportToMarkdown } from '../../../engine/datasets'
import { caseRunOutcome } from '../../../engine/datasets/case-run'
import type { CaseResult } from '../../../engine/datasets/schema'
import type { RunResult, StepSummary } from '../../../engine/executor/types'
import type { Workflow } from '../../../engine/schema/workflow'
import { dataset, results } from './fixture'

const FALLBACK = 'No judge model was named and neither OPENAI_API_KEY nor ANTHROPIC_API_KEY is set, so the offline local:heuristic judge graded this.'
const ok = (output: unknown): StepSummary => ({ status: 'succeeded', attempts: 1, output, error: null })
const workflow = {
  name: 'gate',
  nodes: [{ id: 'in', type: 'input' }, { id: 'first', type: 'evaluator', config: {} }, { id: 'second', type: 'evaluator', config: {} }],
  edges: [{ from: 'in', to: 'first' }, { from: 'first', to: 'second' }],
} as unknown as Workflow

/** The fixture's results, the succeeded runs of cases a and b carrying the fallback warning (4 of 10 case runs). */
const warned: CaseResult[] = results.map(r => (['a', 'b'].includes(r.case_id) ? { ...r, warnings: [FALLBACK] } : r))
const report = buildDatasetReport({ dataset, target: { evaluator: true }, results: warned })
const LINE = `Warning: ${FALLBACK} (4 of 10 case runs)`

describe('warnings in the dataset report', () => {
  it('a case run keeps its evaluators\' warnings, each once whichever steps gave it', () => {
    const result: RunResult = {
      status: 'succeeded', verdict: null, output: null, error: null, duration_ms: 1,
      steps: { first: ok({ passed: true, overall_score: 0.8, warnings: [FALLBACK] }), second: ok({ passed: true, overall_score: 0.9, warnings: [FALLBACK, 'another'] }) },
    }
    expect(caseRunOutcome({ case_id: 'q', repeat: 1 }, workflow, { id: 'r', result, latency_ms: 1 })).toMatchObject({ result: { verdict: 'pass', warnings: [FALLBACK, 'another'] } })
    const silent = { ...result, steps: { first: ok({ passed: true, overall_score: 0.8 }) } }
    expect((caseRunOutcome({ case_id: 'q', repeat: 1 }, workflow, { id: 'r', result: silent, latency_ms: 1 }) as { result: CaseResult }).result.warnings).toBeUndefined()
  })

  it('the JSON report lists each warning once with the case runs that gave it; none without warnings', () => {
    expect(report.warnings).toEqual([{ message: FALLBACK, case_runs: 4 }])
    expect(buildDatasetReport({ dataset, target: { evaluator: true }, results })).not.toHaveProperty('warnings')
    // A warning is about the report as a whole: the results do not each repeat it.
    expect(report.results.some(r => 'warnings' in r)).toBe(false)
  })

  it('Markdown, HTML and JUnit (a testsuite property) say it', () => {
    // Markdown's own characters escaped, as every text of the report is.
    expect(datasetReportToMarkdown(report)).toContain(`> **${LINE.replaceAll('_', '\\_')}**`)
    expect(datasetReportToHtml(report)).toContain(`<p class="warning" role="note">${LINE}</p>`)
    expect(datasetReportToJunit(report)).toContain(`<property name="warning" value="${LINE}"/>`)
    const silent = buildDatasetReport({ dataset, target: { evaluator: true }, results })
    for (const text of [datasetReportToMarkdown(silent), datasetReportToHtml(silent), datasetReportToJunit(silent)]) expect(text).not.toContain('Warning:')
  })
})
