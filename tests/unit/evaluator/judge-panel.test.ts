import { describe, expect, it } from 'vitest'
import { evaluate, pairAgreement, panelPasses, type EvaluatorConfigInput } from '../../../engine'
import { useFakeJudge } from '../../support/fake-judge'

// Judge panels through the real SDKs: each judge is a model on the fake server (OpenAI and
// Anthropic wire formats), answering by its model name.
const { fake, providers } = useFakeJudge()
const input = { content: 'Paris is the capital of France.', context: 'What is the capital of France?' }
const panel = (config: Partial<EvaluatorConfigInput> = {}): EvaluatorConfigInput => ({
  evaluation_type: 'criteria', judges: ['openai:judge-a', 'openai:judge-b', 'anthropic:judge-c'],
  criteria: [{ name: 'relevance', description: 'Answers the question', weight: 0.5 }, { name: 'accuracy', description: 'Facts are right', weight: 0.5 }],
  pass_threshold: 0.7, ...config,
})
const answer = (relevance: number, accuracy: number, feedback: string) => ({
  json: { criteria_scores: { relevance, accuracy }, criteria_reasons: { relevance: 'r', accuracy: 'a' }, feedback, suggestions: [] },
})
/** Judge a and b pass (0.9 and 0.8), judge c fails (0.3). */
const disagreeing = () => fake.onRequest((request) => {
  const model = request.body.model as string
  if (model === 'judge-a') return answer(0.9, 0.9, 'a: good')
  if (model === 'judge-b') return answer(0.8, 0.8, 'b: fine')
  return answer(0.3, 0.3, 'c: wrong')
})

describe('judge panels', () => {
  it('asks every judge, passes by majority, reports each judge, their agreement and a lower confidence', async () => {
    disagreeing()
    const result = await evaluate(panel(), input, { providers: providers() })
    expect(fake.requests.map(r => r.body.model).sort()).toEqual(['judge-a', 'judge-b', 'judge-c'])
    expect(result).toMatchObject({
      passed: true,
      overall_score: 0.667, // the mean of 0.9, 0.8 and 0.3
      criteria_scores: { relevance: 0.667, accuracy: 0.667 },
      panel: {
        aggregate: 'majority',
        judges: [{ model: 'openai:judge-a', overall_score: 0.9, passed: true }, { model: 'openai:judge-b', overall_score: 0.8, passed: true }, { model: 'anthropic:judge-c', overall_score: 0.3, passed: false }],
        agreement: 0.333, // one agreeing pair (a, b) of three
      },
      // The words are those of the passing judge closest to the panel's score.
      feedback: 'b: fine',
      judge: { model: 'openai:judge-a, openai:judge-b, anthropic:judge-c', calls: 3 },
      confidence_factors: { agreement: 0.333 },
    })
    expect(result.usage.input_tokens).toBe(33)

    fake.reset()
    fake.onRequest(() => answer(0.9, 0.9, 'all good'))
    const unanimous = await evaluate(panel(), { ...input, content: 'Paris.' }, { providers: providers() })
    expect(unanimous.panel!.agreement).toBe(1)
    expect(result.confidence).toBeLessThan(unanimous.confidence * 0.5)
  })

  it('by mean score, the same panel fails: 0.667 is under the 0.7 threshold', async () => {
    disagreeing()
    const result = await evaluate(panel({ panel: { aggregate: 'mean' } }), input, { providers: providers() })
    expect(result).toMatchObject({ passed: false, overall_score: 0.667, panel: { aggregate: 'mean', agreement: 0.333 }, feedback: 'c: wrong' })
  })

  it('a tie fails', async () => {
    fake.onRequest(request => (request.body.model === 'judge-a' ? answer(1, 1, 'yes') : answer(0, 0, 'no')))
    const result = await evaluate(panel({ judges: ['openai:judge-a', 'openai:judge-b'], pass_threshold: 0.5 }), input, { providers: providers() })
    expect(result).toMatchObject({ passed: false, overall_score: 0.5, panel: { agreement: 0 } })
    expect(panelPasses('majority', [true, false], 0.5, 0.5)).toBe(false)
    expect(panelPasses('mean', [true, false], 0.5, 0.5)).toBe(true)
    expect(pairAgreement([true, true, false, false])).toBe(0.333)
  })

  it('a judge that is down fails the evaluation, naming it: a panel short of a judge is never a pass', async () => {
    fake.onRequest(request => (request.body.model === 'judge-b' ? { status: 500 } : answer(1, 1, 'yes')))
    await expect(evaluate(panel(), input, { providers: providers() })).rejects.toThrow(/The judge openai:judge-b failed/)
  })

  it('asks the judges at once, not one after another', async () => {
    fake.onRequest(() => ({ ...answer(0.9, 0.9, 'ok'), delayMs: 100 }))
    await evaluate(panel({ cache: false }), input, { providers: providers() })
    expect(fake.maxInFlight).toBe(3)
  })

  it('refuses what a panel cannot be, naming the field, before any call', async () => {
    const refused = async (config: Partial<EvaluatorConfigInput>) => {
      try {
        await evaluate(panel(config), input, { providers: providers() })
      }
      catch (error) {
        return (error as Error).message
      }
      throw new Error('not refused')
    }
    expect(await refused({ model: 'openai:gpt-4o-mini' })).toContain('model: give one judge in "model" or a panel in "judges", not both')
    expect(await refused({ judges: ['openai:a'] })).toContain('judges: a panel has at least 2 judges')
    expect(await refused({ judges: ['openai:a', 'openai:a'] })).toContain('judges[1]: "openai:a" appears more than once')
    expect(await refused({ judges: ['openai:a', 'gpt-4o'] })).toContain('judges[1]: must be "provider:model"')
    expect(await refused({ evaluation_type: 'rubric', judges: ['openai:a', 'openai:b'] } as Partial<EvaluatorConfigInput>))
      .toContain('judges: a judge panel is not available for evaluation_type "rubric" (only criteria, scoring)')
    const { judges: _judges, ...single } = panel()
    await expect(evaluate({ ...single, model: 'openai:x', panel: { aggregate: 'mean' } } as EvaluatorConfigInput, input, { providers: providers() }))
      .rejects.toThrow('panel: applies to a judge panel: list its models in "judges"')
    await expect(evaluate(panel(), input, { providers: providers({ OPENAI_API_KEY: 'k' }) })).rejects.toThrow(/ANTHROPIC_API_KEY is not set: the evaluator's judge panel uses anthropic:judge-c/)
    expect(fake.requests).toHaveLength(0)
  })
})
