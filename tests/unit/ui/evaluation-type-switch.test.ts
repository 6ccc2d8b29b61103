import { describe, expect, it } from 'vitest'
import { switchEvaluationType } from '../../../app/utils/evaluation-type-switch'

describe('switching an evaluator step\'s type', () => {
  it('sets aside what the new type does not use and gives it back when switched to a type that does', () => {
    const criteria = { evaluation_type: 'criteria', criteria: [{ name: 'accuracy' }], pass_threshold: 0.8, content: '{{steps.a.text}}', temperature: 0.2 }
    const metrics = switchEvaluationType(criteria, 'metrics', {})
    expect(metrics.config).toEqual({ evaluation_type: 'metrics', pass_threshold: 0.8, content: '{{steps.a.text}}', temperature: 0.2 })
    expect(metrics.aside).toEqual({ criteria: [{ name: 'accuracy' }] })
    const scorers = switchEvaluationType({ ...metrics.config, metrics: [{ name: 'Relevance' }] }, 'scorers', metrics.aside)
    expect(scorers.config).toEqual({ evaluation_type: 'scorers', temperature: 0.2 })
    expect(Object.keys(scorers.aside).sort()).toEqual(['content', 'criteria', 'metrics', 'pass_threshold'])
    const back = switchEvaluationType({ ...scorers.config, preset: 'strict' }, 'criteria', scorers.aside)
    expect(back.config).toEqual({ ...criteria })
    expect(back.aside).toEqual({ metrics: [{ name: 'Relevance' }], preset: 'strict' })
  })

  it('keeps what both types use, and what is set on the step over what was set aside', () => {
    const rubric = { evaluation_type: 'rubric', criteria: [{ name: 'a' }], rubric: { grades: [{ grade: 'A', min_score: 0 }] } }
    expect(switchEvaluationType(rubric, 'criteria', {}).config).toEqual({ evaluation_type: 'criteria', criteria: [{ name: 'a' }] })
    expect(switchEvaluationType({ evaluation_type: 'scorers', criteria: [{ name: 'new' }] }, 'criteria', { criteria: [{ name: 'old' }] }).config.criteria).toEqual([{ name: 'new' }])
  })
})
