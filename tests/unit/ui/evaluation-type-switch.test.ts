import { describe, expect, it } from 'vitest'
import { droppedBySwitch, switchEvaluationType } from '../../../app/utils/evaluation-type-switch'

describe('switching an evaluator step\'s type', () => {
  it('keeps what the new type uses too and what every type takes; removes the rest, which it names first', () => {
    const criteria = { evaluation_type: 'criteria', criteria: [{ name: 'accuracy' }], pass_threshold: 0.8, content: '{{steps.a.text}}', context: '{{input.q}}', model: 'local:heuristic', temperature: 0.2 }
    expect(droppedBySwitch(criteria, 'rubric')).toEqual([])
    expect(switchEvaluationType(criteria, 'rubric')).toEqual({ ...criteria, evaluation_type: 'rubric' })
    expect(droppedBySwitch(criteria, 'metrics')).toEqual(['criteria'])
    expect(switchEvaluationType(criteria, 'metrics')).toEqual({ evaluation_type: 'metrics', pass_threshold: 0.8, content: '{{steps.a.text}}', context: '{{input.q}}', model: 'local:heuristic', temperature: 0.2 })
    expect(droppedBySwitch({ ...criteria, metrics: [{ name: 'Relevance' }] }, 'scorers').sort()).toEqual(['content', 'context', 'criteria', 'metrics', 'model', 'pass_threshold'])
  })

  it('counts a setting left undefined as not set', () => {
    expect(droppedBySwitch({ evaluation_type: 'rubric', rubric: undefined }, 'metrics')).toEqual([])
  })
})
