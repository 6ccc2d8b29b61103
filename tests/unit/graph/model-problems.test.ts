/**
 * The models a workflow names are checked before it runs, on the step and field that name them:
 * a provider judgeflow does not call and a `local:` model other than the offline judge are
 * errors, a name close to a known one (and unpriced) a warning, an unknown far name nothing (new
 * models run, unpriced).
 */
import { describe, expect, it } from 'vitest'
import { defaultRegistry, validateWorkflow } from '../../../engine'
import { modelRefProblem } from '../../../engine/graph/models'
import { stepSpecs } from '../../../engine/steps/specs'

const criteria = [{ name: 'relevance', description: 'On topic' }]

function judged(config: Record<string, unknown>, draft: Record<string, unknown> = { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'p' } }) {
  return {
    name: 'models',
    nodes: [{ id: 'in', type: 'input' }, draft, { id: 'judge', type: 'evaluator', config: { content: '{{steps.draft.text}}', ...config } }],
    edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }],
  }
}

const found = (raw: unknown) => validateWorkflow(raw, defaultRegistry).problems.map(p => ({ path: p.path, severity: p.severity ?? 'error', message: p.message }))

describe('the models a workflow names', () => {
  it('refuses an unknown provider in a judge panel, with the nearest one', () => {
    const result = validateWorkflow(judged({ evaluation_type: 'criteria', criteria, judges: ['openai:gpt-4o-mini', 'antropic:claude-3-5-haiku-latest'] }), defaultRegistry)
    expect(result.ok).toBe(false)
    expect(found(judged({ evaluation_type: 'criteria', criteria, judges: ['openai:gpt-4o-mini', 'antropic:claude-3-5-haiku-latest'] }))).toEqual([{
      path: 'nodes.judge.config.judges[1]', severity: 'error',
      message: 'node "judge": nodes.judge.config.judges[1]: unknown provider "antropic" in "antropic:claude-3-5-haiku-latest": judgeflow calls openai, anthropic, local; did you mean "anthropic:claude-3-5-haiku-latest"?',
    }])
  })

  it('refuses a misspelt offline judge in a metric suite, and a bare model under an unknown provider', () => {
    const problems = found(judged({ evaluation_type: 'metrics', metrics: [{ name: 'faithfulness', model: 'local:heuristics' }, { name: 'relevancy', provider: 'gemini', model: 'gemini-1.5-pro' }] }))
    expect(problems.map(p => [p.path, p.severity])).toEqual([['nodes.judge.config.metrics[0].model', 'error'], ['nodes.judge.config.metrics[1].model', 'error']])
    expect(problems[0]!.message).toContain('"local:heuristics" is not a local judge: did you mean "local:heuristic"?')
    expect(problems[1]!.message).toContain('unknown provider "gemini" in "gemini:gemini-1.5-pro"')
  })

  it('checks an assertion grader, and leaves a pinned step\'s model alone', () => {
    const draft = { id: 'draft', type: 'llm', config: { model: 'gemini:pro', prompt: 'p' }, pinned: ['an answer'] }
    const problems = found(judged({ evaluation_type: 'assertions', assert: [{ type: 'assert-set', assert: [{ type: 'llm-rubric', value: 'polite', grader: 'opeani:gpt-4o-mini' }] }] }, draft))
    expect(problems.map(p => [p.path, p.severity])).toEqual([['nodes.judge.config.assert[0].assert[0].grader', 'error']])
    expect(problems[0]!.message).toContain('did you mean "openai:gpt-4o-mini"?')
  })

  it('warns of a near-miss model name, in the editor\'s validation too, and stays valid', () => {
    const raw = judged({ evaluation_type: 'criteria', criteria, model: 'anthropic:claude-sonet-4' })
    for (const specs of [defaultRegistry, stepSpecs()]) {
      const result = validateWorkflow(raw, specs)
      expect(result.ok).toBe(true)
      expect(result.problems).toEqual([expect.objectContaining({
        node: 'judge', path: 'nodes.judge.config.model', severity: 'warning',
        message: 'node "judge": nodes.judge.config.model: "anthropic:claude-sonet-4" is not a model judgeflow knows a price for: did you mean "anthropic:claude-sonnet-4"? (a model it does not know runs, unpriced; JUDGEFLOW_PRICES gives it a price)',
      })])
    }
  })

  it('says nothing of known, dated and new models, nor of another version of a known one', () => {
    for (const ref of ['openai:gpt-4o-mini', 'openai:gpt-4o-2024-08-06', 'anthropic:claude-sonnet-4-5-20250929', 'local:heuristic', 'openai:gpt-5', 'openai:gpt-4.5', 'openai:my-finetune']) {
      expect(modelRefProblem(ref), ref).toBeUndefined()
    }
    expect(modelRefProblem('openai:gpt-4o-mni')).toMatchObject({ severity: 'warning' })
    expect(modelRefProblem('local:llama')).toEqual({ message: '"local:llama" is not a local judge: the offline judge is "local:heuristic"' })
  })
})
