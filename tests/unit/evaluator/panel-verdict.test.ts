import { describe, expect, it } from 'vitest'
import { panelFeedback, panelVerdictRule } from '../../../engine/evaluator/panel-verdict'

describe('panelVerdictRule: the verdict and the rule that decided it', () => {
  it('says a majority pass under a mean below the threshold, with "though"', () => {
    // The panel: 0.9, 0.8 and 0.2 → mean 0.633; two of three pass.
    expect(panelVerdictRule({ aggregate: 'majority', verdicts: [true, true, false], score: 0.633, threshold: 0.7, passed: true }))
      .toBe('passed: 2 of 3 judges passed (majority), though the mean score 0.63 is under 0.70')
    expect(panelVerdictRule({ aggregate: 'majority', verdicts: [true, true, true], score: 0.85, threshold: 0.7, passed: true }))
      .toBe('passed: 3 of 3 judges passed (majority); the mean score 0.85 reaches 0.70')
    expect(panelVerdictRule({ aggregate: 'majority', verdicts: [true, false, false], score: 0.75, threshold: 0.7, passed: false }))
      .toBe('failed: 1 of 3 judges passed, not more than half (majority), though the mean score 0.75 reaches 0.70')
    expect(panelVerdictRule({ aggregate: 'majority', verdicts: [true, false], score: 0.4, threshold: 0.7, passed: false }))
      .toBe('failed: 1 of 2 judges passed, a tie (majority: a tie fails); the mean score 0.40 is under 0.70')
  })

  it('by mean: the mean decides, the count follows', () => {
    expect(panelVerdictRule({ aggregate: 'mean', verdicts: [true, true, false], score: 0.633, threshold: 0.7, passed: false }))
      .toBe('failed: the mean score 0.63 is under 0.70 (mean), though 2 of 3 judges passed')
    expect(panelVerdictRule({ aggregate: 'mean', verdicts: [true, false, false], score: 0.72, threshold: 0.7, passed: true }))
      .toBe('passed: the mean score 0.72 reaches 0.70 (mean), though 1 of 3 judges passed')
  })

  it('shows a third decimal where two would make a score under its threshold look equal to it', () => {
    expect(panelVerdictRule({ aggregate: 'mean', verdicts: [true, false], score: 0.698, threshold: 0.7, passed: false, scoreName: 'b\'s mean score' }))
      .toBe('failed: b\'s mean score 0.698 is under 0.700 (mean); 1 of 2 judges passed')
  })
})

describe('panelFeedback: never praise beside a criterion the judges\' mean calls weak', () => {
  const praising = { feedback: 'The answer scores well on every criterion.', criteria_scores: { accuracy: 0.8, relevance: 0.9 } }

  it('names the weakest criterion when the voice scored it at or above the threshold', () => {
    expect(panelFeedback(praising, { accuracy: 0.56, relevance: 0.7 }, 0.7))
      .toBe('The weakest criterion across the judges is accuracy (0.56), under the 0.70 threshold.')
    expect(panelFeedback(praising, { accuracy: 0.56, relevance: 0.6, tone: 0.5, style: 0.1 }, 0.7))
      .toBe('The weakest criteria across the judges, under the 0.70 threshold: style (0.10), tone (0.50), accuracy (0.56) and 1 more.')
  })

  it('keeps the voice\'s words when no mean is under the threshold, or when the voice saw the weakest itself', () => {
    expect(panelFeedback(praising, { accuracy: 0.72, relevance: 0.9 }, 0.7)).toBe(praising.feedback)
    const critical = { feedback: 'Accuracy is poor: the date is wrong.', criteria_scores: { accuracy: 0.3, relevance: 0.9 } }
    expect(panelFeedback(critical, { accuracy: 0.56, relevance: 0.9 }, 0.7)).toBe(critical.feedback)
  })
})
