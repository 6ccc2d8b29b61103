import { describe, expect, it } from 'vitest'
import { fieldText, problemSentence } from '../../../app/utils/field-labels'

describe('the step forms\' words for people', () => {
  it('labels fields in words, a step type\'s own first, with help text; an unknown field by its key in words', () => {
    expect(fieldText('llm', 'max_tokens')).toMatchObject({ label: 'Max tokens' })
    expect(fieldText('condition', 'op').label).toBe('Operator')
    expect(fieldText('condition', 'left').label).toBe('Value')
    expect(fieldText('condition', 'right').label).toBe('Compare with')
    expect(fieldText('output', 'value').label).toBe('Value')
    expect(fieldText('retry', 'target').label).toBe('Step to re-run')
    expect(fieldText('llm', 'prompt').help).toContain('{{')
    expect(fieldText('custom', 'top_p_value', 'from the schema')).toEqual({ label: 'Top p value', help: 'from the schema' })
  })

  it('says a schema\'s problem as a sentence that begins with the field\'s label', () => {
    expect(problemSentence('llm', 'config.model', 'Invalid input: expected string, received undefined')).toBe('Model is required.')
    expect(problemSentence('condition', 'config.left', 'Invalid input: expected nonoptional, received undefined')).toBe('Value is required.')
    expect(problemSentence('condition', 'config.op', 'Invalid option: expected one of "eq"|"neq"|"truthy"')).toBe('Operator must be one of eq, neq, truthy.')
    expect(problemSentence('llm', 'config.max_tokens', 'Too small: expected number to be >0')).toBe('Max tokens must be more than 0.')
    expect(problemSentence('llm', 'config.temperature', 'Too big: expected number to be <=2')).toBe('Temperature must be at most 2.')
    expect(problemSentence('llm', 'config.prompt', 'is empty')).toBe('Prompt is empty.')
    expect(problemSentence('evaluator', 'config.criteria[0].name', 'Too small: expected string to have >=1 characters')).toBe('Criterion 1: the name is required.')
    expect(problemSentence('evaluator', 'config.content', 'is not set: set it to the text to judge, e.g. {{steps.draft.text}} (or not)')).toBe('Text to judge is not set: set it to the text to judge, e.g. {{steps.draft.text}} (or not)')
    // A list's row by its noun and number, its field in words; zod's length limits as sentences.
    expect(problemSentence('evaluator', 'config.rubric.grades[5].grade', 'Too big: expected string to have <=16 characters')).toBe('Grade 6: the name can be at most 16 characters.')
    expect(problemSentence('evaluator', 'config.rubric.grades[0].min_score', 'must be at most 1')).toBe('Grade 1: the min score must be at most 1.')
    expect(problemSentence('evaluator', 'config.rubric.grades', 'Too big: expected array to have <=20 items')).toBe('Rubric grades can have at most 20.')
    // Wording it does not know stays as it is, after the field's label.
    expect(problemSentence('retry', 'config.target', 'target "x" is not a node of this workflow')).toBe('Step to re-run: target "x" is not a node of this workflow.')
  })
})
