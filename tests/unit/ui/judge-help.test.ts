import { describe, expect, it } from 'vitest'
import { effectiveJudge, judgeModelHelp, judgeWhenNone } from '../../../app/utils/judge-help'
import { resolveEvaluatorConfig } from '../../../engine/evaluator/config'

const noKeys = { defaultJudge: 'local:heuristic', keys: { openai: false, anthropic: false } }
const openaiKey = { defaultJudge: 'openai:gpt-4o-mini', keys: { openai: true, anthropic: false } }

describe('the judge an evaluator form names', () => {
  it('names the server\'s default judge, or the type\'s own, as the run resolves it', () => {
    expect(judgeWhenNone({ evaluation_type: 'criteria' }, openaiKey)).toEqual({ model: 'openai:gpt-4o-mini', label: 'openai:gpt-4o-mini (server default)' })
    expect(judgeWhenNone({ evaluation_type: 'scoring' }, noKeys).label).toBe('local:heuristic (server default)')
    expect(judgeWhenNone({ evaluation_type: 'scoring' }, { keys: {} }).label).toBe('server default')
    expect(judgeWhenNone({ evaluation_type: 'metrics' }, openaiKey).label).toBe('anthropic:claude-sonnet-4-5-20250929 (the metric suite\'s default)')
    expect(judgeWhenNone({ evaluation_type: 'metrics', default_provider: 'openai' }, noKeys).model).toBe('openai:gpt-4o-mini')
    expect(judgeWhenNone({ evaluation_type: 'metrics', default_model: 'gpt-4o', default_provider: 'openai' }, noKeys).label).toBe('openai:gpt-4o (default_model)')
    // The same model the run resolves, for every case above.
    for (const config of [{ evaluation_type: 'scoring' }, { evaluation_type: 'metrics' }, { evaluation_type: 'metrics', default_provider: 'openai' }, { evaluation_type: 'metrics', default_model: 'gpt-4o', default_provider: 'openai' }]) {
      expect(effectiveJudge(config, openaiKey)).toBe(resolveEvaluatorConfig(config, 'openai:gpt-4o-mini').model)
    }
    expect(effectiveJudge({ evaluation_type: 'scoring', model: 'gpt-4o', provider: 'openai' }, noKeys)).toBe('openai:gpt-4o')
  })

  it('helps about the judge in force: offline without a key, or the key its provider needs and whether the server has it', () => {
    expect(judgeModelHelp('local:heuristic', noKeys)).toBe('The model that judges. local:heuristic judges offline, without a key: a deterministic heuristic, no network. This server has no provider key, so it is the default.')
    expect(judgeModelHelp('local:heuristic', openaiKey)).not.toContain('API_KEY')
    expect(judgeModelHelp('openai:gpt-4o-mini', openaiKey)).toBe('The model that judges. openai:gpt-4o-mini calls OpenAI (or the OpenAI-compatible server at OPENAI_BASE_URL) with OPENAI_API_KEY, set on this server.')
    expect(judgeModelHelp('anthropic:claude-3-5-haiku-latest', openaiKey)).toBe('The model that judges. anthropic:claude-3-5-haiku-latest needs ANTHROPIC_API_KEY, not set on this server, so a run is refused before it starts: set it in the server\'s environment, or choose local:heuristic to judge offline.')
    expect(judgeModelHelp('mistral:large', noKeys)).toContain('"mistral" is not a provider this server calls (openai, anthropic, local)')
    expect(judgeModelHelp('openai:gpt-4o', openaiKey, true)).toMatch(/^The model that judges every metric \(unless a metric names its own\)\. /)
  })
})
