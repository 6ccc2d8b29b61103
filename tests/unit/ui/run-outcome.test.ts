import { describe, expect, it } from 'vitest'
import { readChartTheme, themedOptions } from '../../../app/utils/chart-theme'
import { runOutcome } from '../../../app/utils/run-outcome'
import type { RunDetail } from '../../../app/utils/runs'

const attempt = (n: number, output: unknown) => ({ attempt: n, status: 'succeeded', output })
const step = (...outputs: unknown[]) => {
  const history = outputs.map((o, i) => attempt(i + 1, o))
  return { ...history.at(-1)!, attempts: history.length, history }
}
const evaluation = (passed: boolean, score: number, feedback: string) => ({ passed, overall_score: score, criteria_scores: {}, pass_threshold: 0.6, feedback })

describe('a run\'s outcome, said first on its page', () => {
  it('takes the run\'s output and the last evaluator\'s final attempt, in the workflow\'s order', () => {
    const run = {
      id: 'r', status: 'succeeded', verdict: 'pass', output: 'The final answer.',
      definition: { nodes: [{ id: 'draft' }, { id: 'judge' }, { id: 'recheck' }] },
      // Listed out of order: the definition decides which evaluator is the last.
      steps: {
        recheck: step(evaluation(true, 0.9, 'Clear steps.')),
        draft: step({ text: 'Not sure.' }, { text: 'Step 1, step 2.' }),
        judge: step(evaluation(false, 0.3, 'Vague.'), evaluation(true, 0.7, 'Better.')),
      },
    } as unknown as RunDetail
    expect(runOutcome(run)).toEqual({
      verdict: 'pass', output: 'The final answer.', judge: { step: 'recheck', passed: true, score: 0.9, threshold: 0.6, reason: 'Clear steps.' }, winner: null, cost: undefined,
    })
  })
  it('falls back on the last LLM step\'s text when the run gave no output, and has no judge without an evaluator', () => {
    const run = { id: 'r', status: 'succeeded', output: null, definition: { nodes: [{ id: 'draft' }] }, steps: { draft: step({ text: 'First.' }, { text: 'Second.' }) } } as unknown as RunDetail
    expect(runOutcome(run)).toEqual({ verdict: null, output: 'Second.', judge: null, winner: null, cost: undefined })
  })
  it('names a comparison\'s winner and what it said, a tie as no winner, and adds up what the calls cost', () => {
    const ranked = (winner: string | null) => ({
      ...evaluation(true, 0.8, 'b gives the steps.'), winner, best_output: winner ? 'Open Settings.' : undefined,
      ranking: [{ id: 'b', rank: 1, overall_score: 0.8, criteria_scores: {} }, { id: 'a', rank: winner ? 2 : 1, overall_score: winner ? 0.3 : 0.8, criteria_scores: {} }],
      criteria_reasons: { a: 'short', b: 'steps' }, cost_usd: 0.002,
    })
    const input = { compare_inputs: ['Check the docs.', 'Open Settings.'] }
    const run = (winner: string | null) => ({
      id: 'r', status: 'succeeded', verdict: null, output: { winner }, definition: { nodes: [{ id: 'a' }, { id: 'judge' }] },
      steps: { a: step({ text: 'Check the docs.', cost_usd: 0.001 }), judge: { ...step(ranked(winner)), history: [{ ...attempt(1, ranked(winner)), input }] } },
    }) as unknown as RunDetail
    expect(runOutcome(run('b'))).toMatchObject({ winner: { id: 'b', text: 'Open Settings.' }, cost: 0.003 })
    expect(runOutcome(run(null)).winner).toEqual({ id: null, text: null })
  })
})

describe('chart options in the theme\'s colours', () => {
  it('colours every axis\'s ticks, title and grid and the legend, adding the x and y scales a chart has by default', () => {
    const options = themedOptions({ scales: { y: { min: 0, ticks: { stepSize: 1 } } }, plugins: { legend: { position: 'bottom' } } }, { text: '#eeeeee', grid: '#333333' })
    expect(options).toMatchObject({
      color: '#eeeeee',
      scales: {
        x: { ticks: { color: '#eeeeee' }, title: { color: '#eeeeee' }, grid: { color: '#333333' } },
        y: { min: 0, ticks: { stepSize: 1, color: '#eeeeee' }, title: { color: '#eeeeee' }, grid: { color: '#333333' } },
      },
      plugins: { legend: { position: 'bottom', labels: { color: '#eeeeee' } } },
    })
  })
  it('reads the light theme\'s colours where there is no page', () => {
    expect(readChartTheme()).toEqual({ text: '#1b1f24', grid: '#d8dce3' })
  })
})
