import { describe, expect, it } from 'vitest'
import { defaultRegistry, validatedWorkflow } from '../../../engine'
import { generatingStep, parseDatasetFile, parseOutputsFile, toCsv, toJsonl, type DatasetCase } from '../../../engine/datasets'

describe('recorded outputs', () => {
  it('an outputs file: one JSON line per case, blank lines and a BOM allowed, a text or an object each', () => {
    const outputs = parseOutputsFile('\uFEFF{"id": "a", "output": "first"}\n\n{"id": " b ", "output": {"text": "second", "sources": [1]}}\n', 'o.jsonl')
    expect([...outputs]).toEqual([['a', 'first'], ['b', { text: 'second', sources: [1] }]])
    expect(() => parseOutputsFile('\n\n', 'o.jsonl')).toThrow('o.jsonl holds no outputs: write one line per case, { "id": "<case id>", "output": "<text>" }.')
    expect(() => parseOutputsFile('["a", "b"]\n', 'o.jsonl')).toThrow('o.jsonl, line 1 is not an object { "id": "<case id>", "output": "<text>" }.')
    expect(() => parseOutputsFile('{"output": "x"}\n', 'o.jsonl')).toThrow('o.jsonl, line 1: "id" must be the case\'s id (a non-empty string).')
  })

  it('the output column and field: read from CSV and JSONL, written back to CSV and JSONL', () => {
    const csv = parseDatasetFile('id,question,output\nq1,Why?,"Because, that is why."\n', 'csv')
    expect(csv.cases).toEqual([{ id: 'q1', input: { question: 'Why?' }, output: 'Because, that is why.' }])
    expect(parseDatasetFile(toCsv(csv.cases), 'csv').cases).toEqual(csv.cases)
    expect(parseDatasetFile(toJsonl(csv.cases), 'jsonl').cases).toEqual(csv.cases)
    const structured: DatasetCase[] = [{ id: 'q1', input: {}, output: { text: 'x' } }]
    expect(() => toCsv(structured)).toThrow('case "q1": its recorded output is an object, which the CSV output column cannot hold; export to JSONL instead.')
    expect(() => toCsv([{ id: 'q1', input: { output: 'an input field' } }])).toThrow('"output" is a reserved column')
  })

  it('the generating step: the one the evaluators judge, their content given or taken from the graph', () => {
    const workflow = validatedWorkflow({
      name: 'w',
      nodes: [
        { id: 'in', type: 'input' },
        { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Hi {{input.q}}' } },
        { id: 'judge', type: 'evaluator', config: { evaluation_type: 'scoring', model: 'local:heuristic' } },
      ],
      edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }],
    }, defaultRegistry)
    expect(generatingStep(workflow, defaultRegistry)).toBe('draft')
    expect(() => generatingStep(workflow, defaultRegistry, 'nope')).toThrow('output_step: the workflow has no step "nope".')
    const judgingInput = validatedWorkflow({
      name: 'w',
      nodes: [{ id: 'in', type: 'input' }, { id: 'judge', type: 'evaluator', config: { evaluation_type: 'scoring', model: 'local:heuristic', content: '{{input.answer}}' } }],
      edges: [{ from: 'in', to: 'judge' }],
    }, defaultRegistry)
    expect(() => generatingStep(judgingInput, defaultRegistry)).toThrow('no evaluator step judges another step\'s output (their content names none)')
  })
})
