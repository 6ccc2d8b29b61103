import { buildDatasetReport } from '../../../engine/datasets/report'
import type { CaseResult, DatasetCase } from '../../../engine/datasets/schema'

/**
 * A report whose runs carry outputs and checks, some of them hostile text:
 *   refund    failed   contains ✓, llm-rubric ✗ "misses the refund window"      output "We never refund."
 *   xss       failed   equals ✗ with markup in its reason; output holds <script>, ]]>, a control character, | and a line break
 *   =formula  errored  error text opens a formula
 *   ok        passed   two checks ✓
 *   long      failed   an output of 1,000 characters, a criterion without a verdict
 */
export const HOSTILE_OUTPUT = 'A <script>alert("x")</script> & \'q\' ]]> \u0001 bell | pipe\nnext line'

export const checkedCases: DatasetCase[] = [
  { id: 'refund', input: { question: 'Can I get a refund | after 40 days?', locale: 'en' }, expected: { verdict: 'pass', reference: 'Within 30 days only.' } },
  { id: 'xss', input: { question: '<img src=x onerror=alert(1)>' } },
  { id: '=formula', input: { question: '=1+1' } },
  { id: 'ok', input: { question: 'Hello' } },
  { id: 'long', input: { question: 'Tell me a story' }, expected: { verdict: 'pass', score: 0.8 } },
]

export const checkedResults: CaseResult[] = [
  {
    case_id: 'refund', repeat: 1, status: 'succeeded', verdict: 'fail', score: 0.5, latency_ms: 120, output: 'We never refund.',
    checks: [
      { name: 'contains', passed: true, score: 1, reason: 'Output contains "refund"' },
      { name: 'llm-rubric', passed: false, score: 0, reason: 'misses the refund window' },
    ],
  },
  {
    case_id: 'xss', repeat: 1, status: 'succeeded', verdict: 'fail', score: 0, latency_ms: 80, output: HOSTILE_OUTPUT,
    checks: [{ name: 'equals <b>', passed: false, score: 0, reason: 'Expected "</pre><script>alert(2)</script>" ]]> got \u0002 something' }],
  },
  { case_id: '=formula', repeat: 1, status: 'errored', latency_ms: 10, error: '=HYPERLINK("http://x.example") provider down' },
  {
    case_id: 'ok', repeat: 1, status: 'succeeded', verdict: 'pass', score: 1, latency_ms: 50, output: 'Hi!',
    checks: [{ name: 'contains', passed: true, score: 1, reason: 'ok' }, { name: 'is-json', passed: true, score: 1, reason: 'fine' }],
  },
  {
    case_id: 'long', repeat: 1, status: 'succeeded', verdict: 'fail', score: 0.2, latency_ms: 300, output: 'x'.repeat(1000),
    checks: [{ name: 'clarity', passed: null, score: 0.2, reason: 'rambles' }],
  },
]

export const checkedDataset = { id: 'ds-2', name: 'refunds <&>', version: 1, cases: checkedCases }

export const checkedReport = buildDatasetReport({ dataset: checkedDataset, target: { workflow_id: 'wf-2' }, results: checkedResults, gates: { min_pass_rate: 0.5, max_errors: 0 } })
