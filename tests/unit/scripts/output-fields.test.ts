import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { readmePath, renderOutputFields, withOutputFields } from '../../../scripts/output-fields'

describe('the README\'s tables of output fields', () => {
  it('are what the declarations say (npm run generate:output-fields rewrites them)', () => {
    const readme = readFileSync(readmePath, 'utf8')
    expect(readme.includes(renderOutputFields()), 'README.md\'s output fields are stale: run npm run generate:output-fields').toBe(true)
    expect(withOutputFields(readme)).toBe(readme)
  })

  it('list every step type and evaluation type, with the fields references are checked against', () => {
    const tables = renderOutputFields()
    for (const heading of ['(`input`)', '(`llm`)', '(`evaluator`)', '(`condition`)', '(`retry`)', '(`output`)', '"scoring"', '"criteria"', '"rubric"', '"comparison"', '"scorers"', '"trace"', '"metrics"']) {
      expect(tables).toContain(heading)
    }
    expect(tables).toContain('| `passed` | boolean |')
    expect(tables).toContain('| `winner` | string \\| null |')
  })
})
