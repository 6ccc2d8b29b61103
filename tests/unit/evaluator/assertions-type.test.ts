import { describe, expect, it } from 'vitest'
import { evaluate } from '../../../engine'
import { useFakeJudge } from '../../support/fake-judge'
import { lastUserText } from '../../support/fake-llm'

const { fake, providers } = useFakeJudge()
const config = (assert: unknown, extra: Record<string, unknown> = {}) => ({ evaluation_type: 'assertions', model: 'openai:gpt-4o-mini', assert, ...extra })

describe('the assertions evaluation type', () => {
  it('grades each llm-rubric with its own grader call and promptfoo\'s pass rule', async () => {
    fake.onRequest((request) => {
      const text = lastUserText(request)
      return { json: text.includes('polite') ? { reason: 'polite enough', pass: true, score: 0.9 } : { reason: 'no apology', pass: true, score: 0.4 } }
    })
    const result = await evaluate(config([
      { type: 'llm-rubric', value: 'is polite' },
      { type: 'llm-rubric', value: 'apologises', threshold: 0.5 },
    ]), { content: 'Thanks for writing.' }, { providers: providers() })
    expect(fake.requests).toHaveLength(2)
    expect(result.passed).toBe(false)
    expect(result.assertions!.map(a => [a.pass, a.score])).toEqual([[true, 0.9], [false, 0.4]])
    expect(result.overall_score).toBeCloseTo(0.65, 6)
    expect(result.criteria_scores).toEqual({ llm_rubric_1: 0.9, llm_rubric_2: 0.4 })
  })

  it('a grader that gives no usable answer fails the assertion, and not- never turns that into a pass', async () => {
    fake.onRequest(() => ({ body: 'not json at all' }))
    const result = await evaluate(config([{ type: 'not-llm-rubric', value: 'is rude' }], { max_retries: 0 }), { content: 'Hello' }, { providers: providers() })
    expect(result.passed).toBe(false)
    expect(result.assertions![0]).toMatchObject({ pass: false, score: 0, graderError: true })
  })

  it('deterministic assertions need no key and make no call; a test threshold decides over the weighted score', async () => {
    const list = [{ type: 'contains', value: 'Paris', weight: 2 }, { type: 'not-icontains', value: 'london' }]
    const strict = await evaluate(config(list, { model: undefined }), { content: 'Paris or London' }, { providers: providers() })
    expect(strict.passed).toBe(false)
    const lenient = await evaluate(config(list, { model: undefined, threshold: 0.6 }), { content: 'Paris or London' }, { providers: providers() })
    expect(lenient.passed).toBe(true)
    expect(fake.requests).toHaveLength(0)
  })

  it('select-best on one output waits (failed, saying why) instead of passing; given candidates, one grader call picks one of them', async () => {
    const alone = await evaluate(config([{ type: 'select-best', value: 'the clearest' }, { type: 'contains', value: 'Paris' }]), { content: 'Paris' }, { providers: providers() })
    expect(alone.passed).toBe(false)
    expect(alone.assertions!.map(a => [a.type, a.pass, a.awaiting ?? false])).toEqual([['contains', true, false], ['select-best', false, true]])
    expect(alone.awaiting_comparison).toMatchObject({ output: 'Paris', pass: true, score: 1, assertion: { type: 'select-best', grader: 'openai:gpt-4o-mini' } })
    expect(fake.requests).toHaveLength(0)

    fake.onRequest(() => ({ text: 'The best is 1.' }))
    const compared = await evaluate(config([{ type: 'select-best', value: 'the clearest' }]), { candidates: ['Paris?', 'Paris.', 'paris'] }, { providers: providers() })
    expect(fake.requests).toHaveLength(1)
    expect(lastUserText(fake.requests[0]!)).toContain('<Text index="2">\nparis\n</Text>')
    expect(compared.selections!.map(s => [s.pass, s.score, s.reason])).toEqual([
      [false, 0, 'Output not selected: the clearest'], [true, 1, 'Output selected as the best: the clearest'], [false, 0, 'Output not selected: the clearest'],
    ])
  })

  it('code is refused where no sandbox is given (a server that does not allow code)', async () => {
    await expect(evaluate(config([{ type: 'javascript', value: 'output.length > 1' }]), { content: 'hi' }, { providers: providers() }))
      .rejects.toThrow(/JUDGEFLOW_ALLOW_CODE/)
  })

  it('refuses a config whose assertion cannot run, naming it', async () => {
    await expect(evaluate(config([{ type: 'contains', value: 'x' }, { type: 'moderation' }]), { content: 'hi' }, { providers: providers() }))
      .rejects.toThrow(/assert\[1\].*"moderation" is not an assertion type judgeflow runs/)
  })
})
