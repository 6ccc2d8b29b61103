import { describe, expect, it } from 'vitest'
import { importPromptfoo } from '../../../engine/datasets'
import { MAX_DATASET_CASES } from '../../../engine/datasets/files'

/** A config of `tests`, `prompts` prompts and `providers` providers, as JSON text (YAML's superset). */
function config(tests: unknown[], prompts = 1, providers = 1, more: Record<string, unknown> = {}): string {
  return JSON.stringify({
    prompts: Array.from({ length: prompts }, (_, i) => `Prompt ${i}: {{topic}}`),
    providers: Array.from({ length: providers }, (_, i) => `openai:gpt-4o-mini-${i}`),
    tests,
    ...more,
  })
}
const items = (n: number, name = 'topic') => Array.from({ length: n }, (_, i) => `${name} ${i}`)
const contains = [{ type: 'contains', value: '{{topic}}' }]

describe('what a promptfoo config may expand into, counted before anything is made', () => {
  it('refuses one var of 3,000 items × 10 prompts × 10 providers (300,000 cases) with the count and where it comes from', () => {
    const text = config([{ vars: { topic: items(3_000) }, assert: contains }], 10, 10)
    expect(text.length).toBeLessThan(40_000)
    expect(() => importPromptfoo(text)).toThrow(
      'the promptfoo config would make 300,000 cases (1 test × 3,000 items of vars.topic × 100 cells of 10 prompts and 10 providers), '
      + 'more than the 100,000 cases a dataset may hold: split it into configs of fewer tests, list items, prompts or providers.',
    )
  })

  it('imports a config at the limit: 1,000 items × 10 prompts × 10 providers make 100,000 cases', () => {
    const imported = importPromptfoo(config([{ vars: { topic: items(1_000) }, assert: contains }], 10, 10))
    expect(imported.cases).toHaveLength(MAX_DATASET_CASES)
    expect(imported.cases[0]).toMatchObject({ id: 'test-1 · prompt 1 · openai:gpt-4o-mini-0', input: { topic: 'topic 0', cell: 1 } })
  })

  it('counts every test\'s list-valued vars (defaultTest\'s included) and names the test that makes the most', () => {
    const tests = [
      { vars: { topic: items(2) }, assert: contains },
      { vars: { topic: items(300), tone: items(40, 'tone') }, assert: contains },
    ]
    expect(() => importPromptfoo(config(tests, 5, 2, { defaultTest: { vars: { lang: ['en', 'fr'] } } }))).toThrow(
      'the promptfoo config would make 240,040 cases (2 tests, made 24,004 by their list-valued vars, the most by tests[1]: 2 items of vars.lang × 300 items of vars.topic × 40 items of vars.tone; '
      + '× 10 cells of 5 prompts and 2 providers), more than the 100,000 cases a dataset may hold: split it into configs of fewer tests, list items, prompts or providers.',
    )
    // Two vars of 20,000 items each would be 400 million tests: refused by arithmetic, none made.
    expect(() => importPromptfoo(config([{ vars: { topic: items(20_000), tone: items(20_000, 'tone') }, assert: contains }], 1, 1))).toThrow(
      'the promptfoo config would make 400,000,000 cases (1 test × 20,000 items of vars.topic × 20,000 items of vars.tone), more than the 100,000 cases a dataset may hold',
    )
    expect(() => importPromptfoo(config([{ vars: { topic: items(200), tone: items(60, 'tone') }, assert: contains }]))).toThrow(
      'the promptfoo config\'s list-valued vars make 12,000 tests (1 test × 200 items of vars.topic × 60 items of vars.tone), more than 10,000: split the config.',
    )
  })

  it('refuses scenarios that make more tests than a dataset holds cases before making them', () => {
    const scenarios = [{ config: Array.from({ length: 1_000 }, (_, i) => ({ vars: { tone: `tone ${i}` } })), tests: Array.from({ length: 200 }, (_, i) => ({ vars: { topic: `t${i}` }, assert: contains })) }]
    expect(() => importPromptfoo(config([{ vars: { topic: 'x' }, assert: contains }], 1, 1, { scenarios }))).toThrow(
      'the promptfoo config would make at least 200,001 cases (scenarios[0]: 1,000 configs × 200 tests, after 1 test before it), more than the 100,000 cases a dataset may hold: split it.',
    )
  })

  it('refuses $ref references that multiply a small config, before copying past the limit', () => {
    // Each template lists the one before it ten times: #/t6 stands for a million copies of t0.
    const templates = Object.fromEntries(Array.from({ length: 7 }, (_, level) => [`t${level}`, level === 0 ? ['x'] : Array.from({ length: 10 }, () => ({ $ref: `#/assertionTemplates/t${level - 1}` }))]))
    const text = config([{ vars: { topic: 'x', big: { $ref: '#/assertionTemplates/t6' } }, assert: contains }], 1, 1, { assertionTemplates: templates })
    expect(text.length).toBeLessThan(3_000)
    expect(() => importPromptfoo(text)).toThrow('the promptfoo config: its $ref references copy more than 1,000,000 values (references to references multiply them); write fewer references, or the values out.')
    // References used as they are meant to be (a template per test) are read as before.
    const tests = Array.from({ length: 500 }, (_, i) => ({ vars: { topic: `t${i}` }, assert: [{ $ref: '#/assertionTemplates/has' }] }))
    const imported = importPromptfoo(config(tests, 1, 1, { assertionTemplates: { has: { type: 'contains', value: '{{topic}}' } } }))
    expect(imported.cases).toHaveLength(500)
    expect(imported.cases[499]!.input.assert).toEqual([{ type: 'contains', value: 't499' }])
  })

  it('refuses cases that would hold more than 50,000,000 characters: a long var copied into every case, or repeated by an assertion', () => {
    const long = 'a'.repeat(200_000)
    expect(() => importPromptfoo(config([{ vars: { topic: items(300), long }, assert: contains }], 1, 1))).toThrow(
      /^the promptfoo config's cases would hold more than 50,000,000 characters of JSON \(passed at test "test-1 \(250\)"\): split it, or keep long texts out of vars and assertions\.$/,
    )
    expect(() => importPromptfoo(config([{ vars: { topic: items(30), long }, assert: contains }], 3, 3))).toThrow(
      'the promptfoo config\'s cases would hold more than 50,000,000 characters of JSON (passed at test "test-1 (28)", each test copied into 9 prompt × provider cells)',
    )
    const repeated = [{ vars: { topic: 'x', long }, assert: [{ type: 'contains', value: '{{long}}'.repeat(300) }] }]
    expect(() => importPromptfoo(config(repeated, 1, 1))).toThrow('the promptfoo config\'s cases would hold more than 50,000,000 characters of JSON (passed while rendering an assertion\'s vars)')
  })

  it('refuses a grid whose workflow would have more steps than a workflow may hold', () => {
    expect(() => importPromptfoo(config([{ vars: { topic: 'x' }, assert: contains }], 30, 30))).toThrow(
      'the promptfoo config\'s 30 prompts × 30 providers make 900 cells, whose workflow would have 2,701 steps (an LLM step, a condition and a judge per cell), '
      + 'more than the 2,000 a workflow may hold: split it into configs of fewer prompts or providers.',
    )
    expect(importPromptfoo(config([{ vars: { topic: 'x' }, assert: contains }], 20, 30)).workflow!.nodes).toHaveLength(1_801)
  })
})
