import { describe, expect, it } from 'vitest'
import { consensusText, figuresText, rejudgeConfigOf } from '../../../app/utils/review-judge'
import { judgedInput } from '../../../core/review/judged-input'

describe('the disagreement list\'s figures as text', () => {
  it('says the consensus with its votes, a tie with the labels tied, or no labels', () => {
    expect(consensusText({ label: 'pass', votes: 2, of: 3 })).toBe('pass (2 of 3)')
    expect(consensusText({ label: null, reason: 'tied', tied: ['fail', 'pass'] })).toBe('tied: fail / pass')
    expect(consensusText({ label: null, reason: 'no labels' })).toBe('no labels')
  })

  it('says a judge\'s κ with its interval, the items compared and the judge', () => {
    const figures = { fingerprint: '6c99136f00aa', kappa: 0.4, kappa_ci: [0, 1] as [number, number], compared: 3, accuracy: 0.6667, confusion: {} }
    expect(figuresText(figures)).toBe('κ 0.40 (95 % CI 0.00 – 1.00) over 3 items · judge 6c99136f')
    expect(figuresText({ ...figures, kappa: null, kappa_ci: null, compared: 1, fingerprint: null })).toBe('κ — over 1 item')
  })

  it('reads the evaluator config typed: none, an object, or why not', () => {
    expect(rejudgeConfigOf('  ')).toEqual({})
    expect(rejudgeConfigOf('{"evaluation_type": "criteria"}')).toEqual({ config: { evaluation_type: 'criteria' } })
    expect(rejudgeConfigOf('[1]')).toEqual({ problem: 'The evaluator config must be a JSON object.' })
    expect(rejudgeConfigOf('{ nope').problem).toMatch(/^The evaluator config is not JSON: /)
  })
})

describe('what the judge is given when re-run on an item', () => {
  it('a dataset case\'s fields, its output as the content judged (or as actual to scorers), its text input as the context', () => {
    const item = { input: { question: 'Who?', context: 'the docs', submission: 'old' }, output: 'judgeflow', context: 'the docs' }
    expect(judgedInput(item)).toEqual({ context: 'the docs', content: 'judgeflow' })
    expect(judgedInput(item, ['actual', 'expected', 'original'])).toEqual({ context: 'the docs', submission: 'old', actual: 'judgeflow' })
    // An evaluator alone judged the case's own fields: no output was recorded.
    expect(judgedInput({ input: { actual: 'judgeflow runs it' }, output: null, context: null }, ['actual'])).toEqual({ actual: 'judgeflow runs it' })
    // A span: its question is text; the output as JSON when it is not.
    expect(judgedInput({ input: 'What runs the gate?', output: { answer: 42 }, context: { system_instructions: 'be brief' } }))
      .toEqual({ content: '{"answer":42}', context: 'What runs the gate?' })
    expect(judgedInput({ input: { n: 1 }, output: 'x', context: 'asked this' })).toEqual({ content: 'x', context: 'asked this' })
  })
})
