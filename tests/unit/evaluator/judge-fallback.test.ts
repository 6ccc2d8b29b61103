import { describe, expect, it } from 'vitest'
import { createProviders, evaluate, JudgeflowError, missingKeyWarnings, runWorkflow, validatedWorkflow, defaultRegistry } from '../../../engine'
import type { EvaluationRunner } from '../../../engine/evaluator'
import { useFakeJudge } from '../../support/fake-judge'
import { testDeps } from '../../support/workflows'

const { fake, providers: withKey } = useFakeJudge()
const criteria = { evaluation_type: 'criteria', criteria: [{ name: 'relevance', description: 'Answers the question', weight: 1 }], pass_threshold: 0.5 }
const input = { content: 'Paris is the capital of France.', context: 'What is the capital of France?' }
const FALLBACK = /^No judge model was named and neither OPENAI_API_KEY nor ANTHROPIC_API_KEY is set, so the offline local:heuristic judge graded this from text features instead of an LLM judge: set a key \(the default judge is then openai:gpt-4o-mini with OPENAI_API_KEY, anthropic:\S+ with ANTHROPIC_API_KEY\), name a model in the evaluator's config, or set JUDGEFLOW_DEFAULT_JUDGE \(--require-judge or JUDGEFLOW_REQUIRE_JUDGE=1 refuses this fallback\)\.$/

describe('the default judge falling back to local:heuristic', () => {
  it.each(['criteria', 'scoring', 'rubric'])('says so in a %s result\'s warnings when no model is named and no key is set', async (type) => {
    const result = await evaluate({ ...criteria, evaluation_type: type }, input, { providers: createProviders() })
    expect(result.judge.heuristic).toBe(true)
    expect(result.warnings).toEqual([expect.stringMatching(FALLBACK)])
  })

  it('says so for a comparison too', async () => {
    const result = await evaluate({ evaluation_type: 'comparison', criteria: criteria.criteria }, { candidates: ['Paris.', 'Lyon, I think.'], context: input.context }, { providers: createProviders() })
    expect(result.warnings).toEqual([expect.stringMatching(FALLBACK)])
  })

  it('says nothing when the offline judge was chosen: named in the config, or as JUDGEFLOW_DEFAULT_JUDGE', async () => {
    const named = await evaluate({ ...criteria, model: 'local:heuristic' }, input, { providers: createProviders() })
    const configured = await evaluate(criteria, input, { providers: createProviders({ defaultJudge: 'local:heuristic' }) })
    expect([named.warnings, configured.warnings]).toEqual([undefined, undefined])
  })

  it('says nothing when a key gives a real default judge, nor for a type that asks no judge', async () => {
    fake.script({ json: { criteria_scores: { relevance: 0.9 }, feedback: 'Good.', suggestions: [] } })
    const judged = await evaluate(criteria, input, { providers: withKey() })
    expect([judged.judge.model, judged.warnings]).toEqual(['openai:gpt-4o-mini', undefined])
    const scored = await evaluate({ evaluation_type: 'scorers', scorers: [{ type: 'regex', options: { pattern: 'Paris' } }] }, { content: 'Paris.' }, { providers: createProviders() })
    expect(scored.warnings).toBeUndefined()
  })

  it('keeps the warning when an evaluation worker judged offline', async () => {
    const { warnings: _w, ...offline } = await evaluate({ ...criteria, model: 'local:heuristic' }, input, { providers: createProviders() })
    const runner: EvaluationRunner = { run: async () => offline }
    const result = await evaluate(criteria, input, { providers: createProviders(), runner })
    expect(result.warnings).toEqual([expect.stringMatching(FALLBACK)])
  })

  it('refuses it, before any call, when a real judge is required: one sentence naming the evaluator and the keys', async () => {
    const refusal = await evaluate(criteria, input, { providers: createProviders({ requireJudge: true }) }).catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(JudgeflowError)
    expect((refusal as JudgeflowError).code).toBe('MISSING_API_KEY')
    expect((refusal as JudgeflowError).message).toBe('A real judge is required (--require-judge, JUDGEFLOW_REQUIRE_JUDGE), but the evaluator names no judge model and neither OPENAI_API_KEY nor ANTHROPIC_API_KEY is set: '
      + 'set OPENAI_API_KEY or ANTHROPIC_API_KEY, or name a model in its config (e.g. "model": "openai:gpt-4o-mini").')
    // A judge named in the config is the person's choice, required or not.
    await expect(evaluate({ ...criteria, model: 'local:heuristic' }, input, { providers: createProviders({ requireJudge: true }) })).resolves.toMatchObject({ judge: { heuristic: true } })
  })

  it('refuses a workflow before its first step runs, and says it beforehand as the step\'s key warning', async () => {
    const workflow = {
      name: 'gate',
      nodes: [
        { id: 'in', type: 'input', config: {} },
        { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'x' }, pinned: ['Paris is the capital of France.'] },
        { id: 'judge', type: 'evaluator', config: { ...criteria, content: '{{steps.draft.text}}' } },
      ],
      edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }],
    }
    const { options, events } = testDeps()
    const providers = createProviders({ requireJudge: true })
    await expect(runWorkflow(workflow, { ...options, providers })).rejects.toThrow(/^A real judge is required \(--require-judge, JUDGEFLOW_REQUIRE_JUDGE\), but node "judge" names no judge model/)
    expect(events).toEqual([])
    expect(missingKeyWarnings(validatedWorkflow(workflow, defaultRegistry), { registry: defaultRegistry, providers })).toEqual([
      { node: 'judge', message: expect.stringContaining('node "judge" names no judge model') },
    ])
    // Not required: the run goes on, and the step's result says which judge graded it.
    const run = await runWorkflow(workflow, options)
    expect((run.steps.judge!.output as { warnings?: string[] }).warnings).toEqual([expect.stringMatching(FALLBACK)])
  })
})
