import { describe, expect, it } from 'vitest'
import { checkCases, parseDatasetFile } from '../../../engine/datasets'
import { jsonShapeProblem, parseJsonChecked } from '../../../engine/text/safe-json'

const options = { maxDepth: 64, where: 'The request body' }

describe('text with a NUL character (which PostgreSQL cannot store in text)', () => {
  it('is refused anywhere in JSON from users, in a value or a key, naming where', () => {
    expect(() => parseJsonChecked('{"name":"a\\u0000b"}', options)).toThrow('The request body is refused: text may not hold the NUL character (\\u0000) (at name).')
    expect(() => parseJsonChecked('{"cases":[{"input":{"q":["x","\\u0000"]}}]}', options)).toThrow('(at cases[0].input.q[1])')
    expect(() => parseJsonChecked('{"input":{"a\\u0000":1}}', options)).toThrow('The request body is refused: text may not hold the NUL character (\\u0000) (at input).')
    expect(() => parseJsonChecked('"\\u0000"', options)).toThrow('(at (top level))')
    expect(() => parseJsonChecked('{"name":"a\\\\u0000b","n":0}', options)).not.toThrow()
  })

  it('is left to run values, which are checked for depth only', () => {
    expect(jsonShapeProblem({ output: 'a\u0000b' }, 64, { anyKey: true })).toBeNull()
    expect(jsonShapeProblem({ output: 'a\u0000b' }, 64, { noNul: true })).toEqual({ kind: 'nul_character', path: 'output' })
  })

  it('in a dataset file of any format, or cases given as values, is refused with its line and field', () => {
    expect(() => parseDatasetFile('{"id":"q1","input":{}}\n{"id":"q\\u0000","input":{}}\n', 'jsonl'))
      .toThrow('the dataset has a problem, so nothing was imported: line 2, (row): is refused: text may not hold the NUL character (\\u0000) (at id).')
    expect(() => parseDatasetFile('[{"id":"q1","input":{"q":"a\\u0000"}}]', 'json')).toThrow('text may not hold the NUL character (\\u0000) (at [0].input.q)')
    expect(() => parseDatasetFile('- id: "q\\0"\n  input: {}\n', 'yaml')).toThrow('text may not hold the NUL character (\\u0000) (at [0].id)')
    expect(() => parseDatasetFile('id,question\nq\u0000,a\n', 'csv'))
      .toThrow('the dataset has a problem, so nothing was imported: line 2, id: is refused: text may not hold the NUL character (\\u0000).')
    expect(() => checkCases([{ id: 'q\u0000', input: {} }])).toThrow('case 1, id: is refused: text may not hold the NUL character (\\u0000)')
    expect(() => parseDatasetFile('{"name":"a\\u0000","cases":[{"id":"q1","input":{}}]}', 'json')).toThrow('text may not hold the NUL character (\\u0000) (at name)')
  })
})
