import { describe, expect, it } from 'vitest'
import { confusionLabels, emptyQueueDraft, inputWithoutContext, queueBody, refusalText, reviewAction, shownValue, withCi } from '../../../app/utils/review'

const field = (tagName: string, type = '') => ({ tagName, type, isContentEditable: false }) as unknown as EventTarget

describe('the review page\'s keys', () => {
  it('picks a label by its number, only as many as the rubric offers', () => {
    expect(reviewAction({ key: '1' }, 2)).toEqual({ kind: 'label', index: 0 })
    expect(reviewAction({ key: '2' }, 2)).toEqual({ kind: 'label', index: 1 })
    expect(reviewAction({ key: '3' }, 2)).toBeNull()
    expect(reviewAction({ key: '0' }, 9)).toBeNull()
  })

  it('submits, skips, moves and shows the keys; nothing with a modifier', () => {
    expect(['Enter', 's', 'j', 'k', '?', 'Escape'].map(key => reviewAction({ key }, 2)?.kind)).toEqual(['submit', 'skip', 'next', 'previous', 'help', 'close'])
    expect(reviewAction({ key: 's', ctrlKey: true }, 2)).toBeNull()
    expect(reviewAction({ key: '1', metaKey: true }, 2)).toBeNull()
    expect(reviewAction({ key: 'x' }, 2)).toBeNull()
  })

  it('leaves the keys alone while the reviewer types in the comment or their name, not on a button or checkbox', () => {
    for (const target of [field('TEXTAREA'), field('INPUT', 'text'), field('INPUT', 'number'), field('SELECT')]) {
      expect(reviewAction({ key: 's', target }, 2)).toBeNull()
      expect(reviewAction({ key: 'Enter', target }, 2)).toBeNull()
    }
    expect(reviewAction({ key: '1', target: field('BUTTON') }, 2)).toEqual({ kind: 'label', index: 0 })
    expect(reviewAction({ key: 'j', target: field('INPUT', 'checkbox') }, 2)).toEqual({ kind: 'next' })
  })

  it('lets Enter press a focused button or link, but submits from a label\'s button', () => {
    const button = (label?: string) => ({ tagName: 'BUTTON', dataset: label ? { reviewLabel: label } : {} }) as unknown as EventTarget
    expect(reviewAction({ key: 'Enter', target: button() }, 2)).toBeNull()
    expect(reviewAction({ key: 'Enter', target: ({ tagName: 'A', dataset: {} }) as unknown as EventTarget }, 2)).toBeNull()
    expect(reviewAction({ key: 'Enter', target: button('pass') }, 2)).toEqual({ kind: 'submit' })
    expect(reviewAction({ key: 'Enter', target: ({ tagName: 'DIV', dataset: {} }) as unknown as EventTarget }, 2)).toEqual({ kind: 'submit' })
  })
})

describe('the new-queue form', () => {
  it('sends the rubric\'s labels split on commas and the dataset run\'s selection with only its own setting', () => {
    const draft = { ...emptyQueueDraft(), name: 'helpfulness', datasetRunId: 'dr1', labels: ' good ,, bad,unsure ', select: 'sample' as const, sampleSize: '5' }
    expect(queueBody(draft)).toEqual({
      name: 'helpfulness', rubric: { labels: ['good', 'bad', 'unsure'], score: false, comment: true }, instructions: null,
      reviewers_per_item: 2, show_judge: false, items: { from: 'dataset_run', dataset_run_id: 'dr1', select: 'sample', sample_size: 5 },
    })
    expect(queueBody({ ...draft, select: 'low_confidence', maxConfidence: '0.4' }).items).toEqual({ from: 'dataset_run', dataset_run_id: 'dr1', select: 'low_confidence', max_confidence: 0.4 })
    // What is not a number goes as typed, for the API to refuse by the field's name.
    expect(queueBody({ ...draft, reviewersPerItem: 'two' }).reviewers_per_item).toBe('two')
  })

  it('says a refusal with the fields it names', () => {
    const error = { data: { message: 'invalid', data: { problems: [{ path: 'name', message: 'must not be empty' }, { path: 'rubric.labels', message: 'must offer at least 2 labels' }] } } }
    expect(refusalText(error)).toBe('name: must not be empty; rubric.labels: must offer at least 2 labels')
    expect(refusalText({ data: { message: 'items.dataset_run_id: no dataset run with id "x"' } })).toBe('items.dataset_run_id: no dataset run with id "x"')
  })
})

describe('an item and its agreement as shown', () => {
  it('shows text as it is, one-line fields as lines and other values as JSON; the context apart from the input', () => {
    expect(shownValue('hello')).toBe('hello')
    expect(shownValue({ question: 'why?', tries: 2 })).toBe('question: why?\ntries: 2')
    expect(shownValue({ a: 'two\nlines' })).toBe('{\n  "a": "two\\nlines"\n}')
    expect(shownValue({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}')
    expect(shownValue(null)).toBe('')
    expect(inputWithoutContext({ question: 'q', context: 'c' }, 'c')).toBe('q')
    expect(inputWithoutContext({ question: 'q', topic: 't', context: 'c' }, 'c')).toEqual({ question: 'q', topic: 't' })
    expect(inputWithoutContext({ question: 'q' }, null)).toEqual({ question: 'q' })
  })

  it('writes a figure with its interval, and makes the confusion matrix square over every label seen', () => {
    expect(withCi(0.5, [0.1, 0.853])).toBe('0.50 (95 % CI 0.10 – 0.85)')
    expect(withCi(0.5, null)).toBe('0.50 (no interval)')
    expect(withCi(null, null)).toBe('—')
    expect(confusionLabels({ pass: { pass: 1, unsure: 1 }, fail: { fail: 2 } }, ['pass', 'fail'])).toEqual(['pass', 'fail', 'unsure'])
  })
})
