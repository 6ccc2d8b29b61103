import { describe, expect, it } from 'vitest'
import { builtinMetrics, evaluatorModels, isOfflineEvaluation, MetricRegistry, prepareEvaluation } from '../../../engine/evaluator'
import { createProviders } from '../../../engine/providers'
import { isHeuristic } from '../../../engine/evaluator/context'
import { evaluationTypeDefinitions } from '../../../engine/evaluation-types/registry'
import { evaluationTypes, type EvaluationType } from '../../../engine/schema/evaluation-types'
import type { Providers } from '../../../engine/providers/types'

const keys = { OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'sk-ant-test' }
const providers = createProviders({ env: keys })

/** One config of each type, judged by `model` (nothing for the types that use no judge). */
const configOf: Record<EvaluationType, (model: string) => Record<string, unknown>> = {
  scoring: model => ({ evaluation_type: 'scoring', model }),
  criteria: model => ({ evaluation_type: 'criteria', model, criteria: [{ name: 'clear', description: 'It is clear.' }] }),
  comparison: model => ({ evaluation_type: 'comparison', model, compare_inputs: ['{{steps.a.text}}', '{{steps.b.text}}'] }),
  rubric: model => ({ evaluation_type: 'rubric', model, criteria: [{ name: 'clear', description: 'It is clear.' }] }),
  metrics: model => ({ evaluation_type: 'metrics', model }),
  scorers: () => ({ evaluation_type: 'scorers', preset: 'standard' }),
  trace: () => ({ evaluation_type: 'trace' }),
  assertions: model => ({ evaluation_type: 'assertions', model, assert: [{ type: 'llm-rubric', value: 'polite' }] }),
}

/** The built-in metrics and one computed in code. */
const metrics = new MetricRegistry([...builtinMetrics, { name: 'Length', description: 'Longer is better.', score: () => ({ score: 50, evaluator_comment: 'half' }) }])

function offline(config: Record<string, unknown>) {
  const { config: resolved, definition, prepared } = prepareEvaluation(config, { providers, metrics })
  return { offline: isOfflineEvaluation(definition, resolved, prepared), models: evaluatorModels(resolved, metrics, { value: prepared }) }
}

/** Providers that note every model whose key is checked before a run. */
function checking() {
  const checked: string[] = []
  return { checked, providers: { ...providers, check: (model: string) => void checked.push(model) } as Providers }
}

describe('the models an evaluation calls: one list for the key check, the offline check and the fingerprint', () => {
  it('covers every evaluation type', () => {
    expect(Object.keys(configOf).sort()).toEqual([...evaluationTypes].sort())
  })

  it('runs offline exactly when every model it calls is the offline judge, for every type that keeps no rule of its own', () => {
    for (const definition of evaluationTypeDefinitions.filter(d => !d.offline)) {
      for (const model of ['local:heuristic', 'openai:gpt-4o-mini']) {
        const { offline: isOffline, models } = offline(configOf[definition.type](model))
        expect([definition.type, model, isOffline], String(models)).toEqual([definition.type, model, models.every(isHeuristic)])
      }
      if (!definition.panel) continue
      const panel = { ...configOf[definition.type]('x:y'), model: undefined, judges: ['local:heuristic', 'openai:gpt-4o-mini'] }
      expect(offline(panel)).toEqual({ offline: false, models: ['local:heuristic', 'openai:gpt-4o-mini'] })
    }
  })

  it('checks the key of every model it calls before a run, a panel\'s judges each', () => {
    for (const [config, expected] of [
      [configOf.scoring('openai:gpt-4o-mini'), ['openai:gpt-4o-mini']],
      [{ ...configOf.criteria('x:y'), model: undefined, judges: ['openai:gpt-4o-mini', 'anthropic:claude-3-haiku'] }, ['openai:gpt-4o-mini', 'anthropic:claude-3-haiku']],
      [configOf.scoring('local:heuristic'), []],
      [configOf.trace(''), []],
    ] as const) {
      const { checked, providers: using } = checking()
      prepareEvaluation(config, { providers: using })
      expect(checked).toEqual(expected)
    }
  })

  it('keeps the metric suite\'s and the assertions\' own rules, where what runs offline is not what the list says', () => {
    // A metric suite: offline when each metric a model judges is judged by the offline one…
    expect(offline(configOf.metrics('local:heuristic')).offline).toBe(true)
    expect(offline(configOf.metrics('anthropic:claude-3-haiku')).offline).toBe(false)
    // …so a panel over metrics computed in code calls none of its judges, though the fingerprint names them.
    const inCode = { evaluation_type: 'metrics', metrics: [{ name: 'Length' }], judges: ['local:heuristic', 'openai:gpt-4o-mini'] }
    expect(offline(inCode)).toEqual({ offline: true, models: ['local:heuristic', 'openai:gpt-4o-mini'] })
    // Assertions: only those that need nothing beside the output leave the caller, whose services
    // (a grader, even the offline one, a code sandbox) the others use.
    expect(offline({ evaluation_type: 'assertions', assert: [{ type: 'contains', value: 'a' }] }).offline).toBe(true)
    expect(offline(configOf.assertions('local:heuristic'))).toEqual({ offline: false, models: [] })
    expect(offline({ evaluation_type: 'assertions', assert: [{ type: 'javascript', value: 'true' }] })).toEqual({ offline: false, models: [] })
    expect(offline({ evaluation_type: 'assertions', assert: '{{input.assert}}', model: 'local:heuristic' }).offline).toBe(false)
  })
})
