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
        // Passed by the majority under a mean below the threshold: the rule is said, with its "though".
        verdict_rule: 'passed: 2 of 3 judges passed (majority), though the mean score 0.67 is under 0.70',
      },
      // The passing judge closest to the panel's score (b) scored every criterion 0.8: its words
      // ("fine") would stand beside means of 0.667, under the threshold; the weakest are named instead.
      feedback: 'The weakest criteria across the judges, under the 0.70 threshold: accuracy (0.67), relevance (0.67).',
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
    // c voted with the verdict and scored the weak criteria under the threshold itself: its words stand.
    expect(result).toMatchObject({
      passed: false, overall_score: 0.667, feedback: 'c: wrong',
      panel: { aggregate: 'mean', agreement: 0.333, verdict_rule: 'failed: the mean score 0.67 is under 0.70 (mean), though 2 of 3 judges passed' },
    })
  })

  it('a tie fails', async () => {
    fake.onRequest(request => (request.body.model === 'judge-a' ? answer(1, 1, 'yes') : answer(0, 0, 'no')))
    const result = await evaluate(panel({ judges: ['openai:judge-a', 'openai:judge-b'], pass_threshold: 0.5 }), input, { providers: providers() })
    expect(result).toMatchObject({ passed: false, overall_score: 0.5, panel: { agreement: 0, verdict_rule: 'failed: 1 of 2 judges passed, a tie (majority: a tie fails), though the mean score 0.50 reaches 0.50' } })
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
    expect(await refused({ evaluation_type: 'trace', judges: ['openai:a', 'openai:b'] } as Partial<EvaluatorConfigInput>))
      .toContain('judges: a judge panel is not available for evaluation_type "trace" (only scoring, criteria, comparison, rubric, metrics)')
    const { judges: _judges, ...single } = panel()
    await expect(evaluate({ ...single, model: 'openai:x', panel: { aggregate: 'mean' } } as EvaluatorConfigInput, input, { providers: providers() }))
      .rejects.toThrow('panel: applies to a judge panel: list its models in "judges"')
    await expect(evaluate(panel(), input, { providers: providers({ OPENAI_API_KEY: 'k' }) })).rejects.toThrow(/ANTHROPIC_API_KEY is not set: the evaluator's judge panel uses anthropic:judge-c/)
    expect(fake.requests).toHaveLength(0)
  })
})

describe('a rubric panel', () => {
  it('grades the panel\'s mean score, not any one judge\'s', async () => {
    disagreeing()
    const grades = [{ grade: 'A', min_score: 0.85 }, { grade: 'B', min_score: 0.75 }, { grade: 'C', min_score: 0.6 }, { grade: 'F', min_score: 0 }]
    const result = await evaluate(panel({ evaluation_type: 'rubric', rubric: { grades } } as Partial<EvaluatorConfigInput>), input, { providers: providers() })
    // a 0.9 (A), b 0.8 (B), c 0.3 (F): the mean 0.667 is a C.
    expect(result).toMatchObject({ passed: true, overall_score: 0.667, grade: 'C', panel: { agreement: 0.333 } })
    expect(result.feedback).toBe('The weakest criteria across the judges, under the 0.70 threshold: accuracy (0.67), relevance (0.67).')
  })
})

describe('a comparison panel: each judge in both orders', () => {
  const candidates = ['Paris is the capital.', 'Lyon is the capital.', 'It is Paris, on the Seine.']
  /** The text each label stands for in this prompt. */
  const shownAs = (prompt: string) => new Map([...prompt.matchAll(/## Candidate ([A-Z])\n<<<(DATA-\w+)\n([\s\S]*?)\n\2>>>/g)].map(m => [m[1]!, m[3]!]))
  /** Each judge's scores by candidate text: judge-a and judge-b prefer the first, judge-c the third. */
  const prefers: Record<string, Record<string, number>> = {
    'judge-a': { [candidates[0]!]: 0.9, [candidates[1]!]: 0.1, [candidates[2]!]: 0.7 },
    'judge-b': { [candidates[0]!]: 0.8, [candidates[1]!]: 0.2, [candidates[2]!]: 0.6 },
    'judge-c': { [candidates[0]!]: 0.5, [candidates[1]!]: 0.1, [candidates[2]!]: 0.9 },
  }
  const comparing = () => fake.onRequest((request) => {
    const model = request.body.model as string
    const user = (request.body.messages as Array<{ role: string, content: string }>).find(m => m.role === 'user')!.content
    const shown = shownAs(user)
    return { json: {
      candidates: Object.fromEntries([...shown].map(([label, text]) => [label, { criteria_scores: { relevance: prefers[model]![text]!, accuracy: prefers[model]![text]! }, reason: `${model} on ${label}` }])),
      feedback: `${model} compared`, suggestions: [],
    } }
  })
  const comparison = (aggregate: 'majority' | 'mean') => panel({ evaluation_type: 'comparison', judges: ['openai:judge-a', 'openai:judge-b', 'openai:judge-c'], panel: { aggregate }, pass_threshold: 0.6 } as Partial<EvaluatorConfigInput>)

  it('asks every judge in both orders, ranks by the mean score, and names the winner most judges named', async () => {
    comparing()
    const result = await evaluate(comparison('majority'), { candidates }, { providers: providers() })
    // Three judges × two orders.
    expect(fake.requests.map(r => r.body.model).sort()).toEqual(['judge-a', 'judge-a', 'judge-b', 'judge-b', 'judge-c', 'judge-c'])
    expect(result.ranking!.map(r => [r.id, r.overall_score, r.rank])).toEqual([['candidate_1', 0.733, 1], ['candidate_3', 0.733, 1], ['candidate_2', 0.133, 3]])
    expect(result).toMatchObject({
      winner: 'candidate_1', // a and b named it: two of three
      best_output: candidates[0],
      overall_score: 0.733,
      passed: true,
      position_consistency: 1,
      panel: {
        aggregate: 'majority',
        judges: [
          { model: 'openai:judge-a', winner: 'candidate_1', overall_score: 0.9, passed: true },
          { model: 'openai:judge-b', winner: 'candidate_1', overall_score: 0.8, passed: true },
          { model: 'openai:judge-c', winner: 'candidate_3', overall_score: 0.9, passed: true },
        ],
        agreement: 0.333,
        verdict_rule: 'passed: 3 of 3 judges passed (majority); candidate_1\'s mean score 0.73 reaches 0.60',
      },
    })
    expect(result.ranking![0]!.scores_by_order).toHaveLength(6)
  })

  it('by mean score, a top that ties with the next is no winner', async () => {
    comparing()
    const result = await evaluate(comparison('mean'), { candidates }, { providers: providers() })
    // candidate_1 and candidate_3 both average 0.733: a tie.
    expect(result).toMatchObject({ winner: null, passed: true, panel: { aggregate: 'mean' } })
  })

  it('with no majority for a winner, there is none', async () => {
    prefers['judge-b'] = { [candidates[0]!]: 0.1, [candidates[1]!]: 0.9, [candidates[2]!]: 0.2 }
    comparing()
    const result = await evaluate(comparison('majority'), { candidates }, { providers: providers() })
    expect(result.panel!.judges.map(j => j.winner)).toEqual(['candidate_1', 'candidate_2', 'candidate_3'])
    expect(result).toMatchObject({ winner: null, panel: { agreement: 0 } })
  })
})

describe('a metric suite panel', () => {
  const suite = (config: Record<string, unknown> = {}) => ({
    evaluation_type: 'metrics', judges: ['openai:judge-a', 'anthropic:judge-c'], pass_threshold: 0.5,
    metrics: [{ name: 'Relevance', weight: 0.5 }, { name: 'Coverage', weight: 0.5 }], ...config,
  }) as EvaluatorConfigInput

  it('asks each judge for every metric; each metric is the judges\' mean', async () => {
    fake.onRequest((request) => {
      const model = request.body.model as string
      const score = model === 'judge-a' ? 80 : 30
      return { json: { score, evaluator_comment: `${model} gave ${score}` } }
    })
    const result = await evaluate(suite(), input, { providers: providers() })
    expect(fake.requests.map(r => r.body.model).sort()).toEqual(['judge-a', 'judge-a', 'judge-c', 'judge-c'])
    expect(result).toMatchObject({
      overall_score: 0.55,
      passed: false, // a passes (0.8), c fails (0.3): a tie of two fails
      criteria_scores: { Relevance: 0.55, Coverage: 0.55 },
      evaluation_result: { overall_score: 55 },
      panel: { judges: [{ model: 'openai:judge-a', overall_score: 0.8, passed: true }, { model: 'anthropic:judge-c', overall_score: 0.3, passed: false }], agreement: 0 },
    })
    expect(result.metrics!.map(m => [m.metric_name, m.score])).toEqual([['Relevance', 55], ['Coverage', 55]])
  })

  it('refuses a model named for a metric, or as the suite\'s default, beside the panel', async () => {
    await expect(evaluate(suite({ metrics: [{ name: 'Relevance', model: 'openai:gpt-4o' }] }), input, { providers: providers() }))
      .rejects.toThrow('metrics[0].model: a judge panel asks each of its judges for every metric')
    await expect(evaluate(suite({ llm_default: { model: 'openai:gpt-4o' } }), input, { providers: providers() })).rejects.toThrow('llm_default.model: a judge panel')
    await expect(evaluate(suite({ default_provider: 'openai' }), input, { providers: providers() })).rejects.toThrow('default_provider: a judge panel')
    expect(fake.requests).toHaveLength(0)
  })
})
