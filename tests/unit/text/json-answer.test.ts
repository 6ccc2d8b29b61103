import { describe, expect, it } from 'vitest'
import { readJsonAnswer } from '../../../engine/text/json-answer'

describe('reading a judge\'s JSON answer', () => {
  it('reads plain JSON as it is, with no repair', () => {
    expect(readJsonAnswer(' {"score": 0.85, "reason": "ok"} ')).toEqual({ ok: true, value: { score: 0.85, reason: 'ok' }, repairs: [] })
  })

  it('repairs what models wrap around a complete answer, and says which repairs it made', () => {
    expect(readJsonAnswer('```json\n{"score": 0.85}\n```')).toEqual({ ok: true, value: { score: 0.85 }, repairs: ['fenced block'] })
    expect(readJsonAnswer('Sure! Here is my verdict:\n\n{"score": 0.85, "reason": "it\'s complete"}\n\nLet me know if you need more.'))
      .toEqual({ ok: true, value: { score: 0.85, reason: 'it\'s complete' }, repairs: ['prose around it'] })
    expect(readJsonAnswer('I judged it.\n```\n{\'score\': 0.85, \'reason\': \'says "hi" and it\\\'s fine\',}\n```\nDone.'))
      .toEqual({ ok: true, value: { score: 0.85, reason: 'says "hi" and it\'s fine' }, repairs: ['fenced block', 'prose around it', 'single quotes', 'trailing commas'] })
    expect(readJsonAnswer('{"criteria": [{"name": "a", "score": 1,}, {"name": "b", "score": 0},],}'))
      .toEqual({ ok: true, value: { criteria: [{ name: 'a', score: 1 }, { name: 'b', score: 0 }] }, repairs: ['trailing commas'] })
  })

  it('skips braces in the prose before the answer', () => {
    expect(readJsonAnswer('Using the format {score} you asked for: {"score": 3}'))
      .toEqual({ ok: true, value: { score: 3 }, repairs: ['prose around it'] })
  })

  it('keeps commas and quotes inside strings as they are', () => {
    expect(readJsonAnswer('Result: {"reason": "a, b,}", "score": 1}')).toEqual({ ok: true, value: { reason: 'a, b,}', score: 1 }, repairs: ['prose around it'] })
  })

  it('never completes or guesses: an answer cut short, or malformed otherwise, is unreadable, saying why', () => {
    expect(readJsonAnswer('{"score": 0.8')).toEqual({ ok: false, problem: expect.stringMatching(/not complete/) })
    expect(readJsonAnswer('Here: {"score": 0.8, "reason": "cut')).toEqual({ ok: false, problem: expect.stringMatching(/not complete/) })
    expect(readJsonAnswer('{score: 0.8}')).toEqual({ ok: false, problem: expect.stringMatching(/malformed/) })
    expect(readJsonAnswer('I would give it 8 out of 10.')).toEqual({ ok: false, problem: 'the answer has no JSON object in it' })
    expect(readJsonAnswer('   ')).toEqual({ ok: false, problem: 'the answer is empty' })
  })
})
