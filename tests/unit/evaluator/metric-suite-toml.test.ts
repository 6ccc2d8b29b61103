import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { metricSuiteToToml, parseMetricSuiteToml } from '../../../engine/evaluator/metric-suite-toml'

describe('metric suite TOML, both ways', () => {
  it('exports a config that reads back the same, and keeps the example file\'s meaning', () => {
    const config = parseMetricSuiteToml(readFileSync('examples/evaluator.toml', 'utf8'))
    expect(config).toEqual({
      evaluation_type: 'metrics',
      pass_threshold: 0.7,
      llm_default: { model: 'local:heuristic', temperature: 0, max_retries: 3 },
      metrics: [{ name: 'Relevance', weight: 0.5 }, { name: 'ClarityCoherence', weight: 0.3 }, { name: 'Coverage', weight: 0.2 }],
    })
    const text = metricSuiteToToml(config)
    expect(text).toContain('[[metrics]]\nname = "Relevance"\nweight = 0.5')
    expect(parseMetricSuiteToml(text)).toEqual(config)
  })

  it('leaves out empty fields and non-suite settings that TOML cannot hold', () => {
    const text = metricSuiteToToml({ evaluation_type: 'metrics', include_feedback: false, criteria: [{ name: 'x' }], metrics: [{ name: 'Coverage', weight: 1, model: '', system_instruction: undefined }] })
    expect(parseMetricSuiteToml(text)).toEqual({ evaluation_type: 'metrics', include_feedback: false, metrics: [{ name: 'Coverage', weight: 1 }] })
  })

  it('names the problem in bad TOML', () => {
    expect(() => parseMetricSuiteToml('[[metrics]\nname = 1', 'suite.toml')).toThrow(/^suite\.toml is not valid TOML: /)
  })
  it('refuses a __proto__ key and tables nested deeper than JSON bodies may be', () => {
    expect(() => parseMetricSuiteToml('[[metrics]]\nname = "m"\n[metrics.__proto__]\nx = 1', 'suite.toml')).toThrow('suite.toml is refused: "__proto__" is not allowed as a key (at metrics[0])')
    expect(() => parseMetricSuiteToml(`[${Array(70).fill('t').join('.')}]\nx = 1`, 'suite.toml')).toThrow(/^suite\.toml nests objects and arrays more than 64 levels deep \(at t\.t/)
  })
  it('refuses inline arrays and tables nested deeper than the limit where they are, before reading them', () => {
    const arrays = `name = "x"
list = ${'['.repeat(3000)}${']'.repeat(3000)}`
    expect(() => parseMetricSuiteToml(arrays, 'suite.toml')).toThrow(/^suite\.toml nests objects and arrays more than 64 levels deep \(at line 2, column \d+\): .*JUDGEFLOW_MAX_JSON_DEPTH/)
    expect(() => parseMetricSuiteToml(`t = ${'{a = '.repeat(3000)}1${'}'.repeat(3000)}`, 'suite.toml', 8)).toThrow(/more than 8 levels deep \(at line 1, column \d+\)/)
    // The limit counts the document itself: 7 inline levels under it make 8.
    expect(parseMetricSuiteToml(`t = ${'['.repeat(7)}${']'.repeat(7)}`, 'suite.toml', 8)).toMatchObject({ t: [[[[[[[]]]]]]] })
    expect(() => parseMetricSuiteToml(`t = ${'['.repeat(8)}${']'.repeat(8)}`, 'suite.toml', 8)).toThrow(/more than 8 levels deep/)
  })
})
