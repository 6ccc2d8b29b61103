import { describe, expect, it } from 'vitest'
import { JudgeflowError, runWorkflow, validatedWorkflow } from '../../../engine'
import { importPromptfoo, type PromptfooImport } from '../../../engine/datasets'
import { assertionFromCell } from '../../../engine/datasets/promptfoo-assertions'
import { defaultRegistry } from '../../../engine/steps/registry'
import { testDeps } from '../../support/workflows'

/** A config with one prompt and one provider, and these tests (YAML). */
function config(tests: string, extra = ''): string {
  return `description: Support
prompts:
  - "Answer: {{ question }}"
providers:
  - id: openai:chat:gpt-4o-mini
    config: { temperature: 0.2, max_tokens: 300 }
${extra}
tests:
${tests}`
}

/** Runs the imported workflow on each case with the LLM step's answer pinned; the verdicts by case id. */
async function verdicts(imported: PromptfooImport, answers: Record<string, string>) {
  const out: Record<string, string | null> = {}
  for (const item of imported.cases) {
    const workflow = structuredClone(imported.workflow!) as { nodes: Array<{ id: string, type: string, pinned?: string[] }> }
    for (const node of workflow.nodes) if (node.type === 'llm') node.pinned = [answers[item.id]!]
    const { options } = testDeps()
    const result = await runWorkflow(workflow, { ...options, input: item.input })
    expect(result.status).toBe('succeeded')
    // As a dataset run reads it: the run's verdict, else the judge's.
    out[item.id] = result.verdict ?? ((result.steps.judge!.output as { passed: boolean }).passed ? 'pass' : 'fail')
  }
  return out
}

describe('promptfoo import: assertions', () => {
  it('keeps each test\'s assertions as written, their {{vars}} rendered, for the assertions evaluator', () => {
    const imported = importPromptfoo(config(`  - description: capital
    vars: { question: Capital of France?, city: Paris }
    threshold: 0.5
    assert:
      - { type: not-icontains, value: "{{city}}ville", weight: 2, metric: place }
      - type: assert-set
        assert: [{ type: starts-with, value: "{{city}}" }]`))
    expect(imported.cases[0]!.input).toEqual({
      question: 'Capital of France?', city: 'Paris', assert_threshold: 0.5,
      assert: [{ type: 'not-icontains', value: 'Parisville', weight: 2, metric: 'place' }, { type: 'assert-set', assert: [{ type: 'starts-with', value: 'Paris' }] }],
    })
    expect(imported.evaluator).toEqual({ evaluation_type: 'assertions', assert: '{{input.assert}}', threshold: '{{input.assert_threshold}}', vars: '{{input}}' })
  })

  it('names the grader: defaultTest.options.provider in each form; the one given to the import (--grader) replaces it, as promptfoo\'s --grader does', () => {
    const rubric = '      - { type: llm-rubric, value: "Is polite" }'
    expect(importPromptfoo(config(`  - vars: { question: q }\n    assert:\n${rubric}`), { judge: 'openai:gpt-4o' }).evaluator).toMatchObject({ model: 'openai:gpt-4o' })
    for (const provider of ['anthropic:messages:claude-3-5-haiku', '{ id: anthropic:messages:claude-3-5-haiku }', '{ text: anthropic:messages:claude-3-5-haiku, embedding: openai:embedding:text-embedding-3-small }', '{ text: { id: anthropic:claude-3-5-haiku } }']) {
      const text = config(`  - vars: { question: q }\n    assert:\n${rubric}`, `defaultTest:\n  options:\n    provider: ${provider}`)
      expect(importPromptfoo(text).evaluator).toMatchObject({ model: 'anthropic:claude-3-5-haiku' })
      const replaced = importPromptfoo(text, { judge: 'openai:gpt-4o' })
      expect(replaced.evaluator).toMatchObject({ model: 'openai:gpt-4o' })
      expect(replaced.notes).toContain('--grader openai:gpt-4o replaces defaultTest.options.provider (anthropic:claude-3-5-haiku), as promptfoo\'s --grader does')
    }
    // promptfoo's own spelling of a grader names the same model, never "chat:<model>".
    for (const [given, model] of [['openai:chat:gpt-4o', 'openai:gpt-4o'], ['anthropic:messages:claude-3-5-haiku', 'anthropic:claude-3-5-haiku'], ['local:heuristic', 'local:heuristic']]) {
      expect(importPromptfoo(config(`  - vars: { question: q }\n    assert:\n${rubric}`), { judge: given }).evaluator).toMatchObject({ model })
    }
  })

  it('imports tests without assertions, which pass as promptfoo passes them, saying so', async () => {
    const imported = importPromptfoo(config('  - description: bare\n    vars: { question: q }\n  - description: checked\n    vars: { question: q }\n    assert: [{ type: contains, value: x }]'))
    expect(imported.notes).toContain('1 of 2 tests have no assertions: each such test passes (score 1) when its output is produced, as promptfoo passes it; add an assert list to check the output')
    expect(await verdicts(imported, { bare: 'anything', checked: 'no' })).toEqual({ bare: 'pass', checked: 'fail' })
    expect(importPromptfoo('tests:\n  - vars: { a: 1 }').notes).toContain('no test has assertions: each such test passes (score 1) when its output is produced, as promptfoo passes it; add an assert list to check the output')
  })

  it('without a grader named, each cell\'s own provider grades, saying so; with no provider either, it refuses rather than judge offline without a word', () => {
    const graded = importPromptfoo(config('  - vars: { question: q }\n    assert:\n      - { type: llm-rubric, value: Is polite }'))
    expect(graded.evaluator).not.toHaveProperty('model')
    expect(graded.workflow!.nodes).toContainEqual(expect.objectContaining({ id: 'judge', config: expect.objectContaining({ model: 'openai:gpt-4o-mini' }) }))
    expect(graded.notes).toContain('no grader is named, so each prompt × provider\'s own model grades its model-graded assertions: set defaultTest.options.provider, or --grader, to choose one (promptfoo would use its own default grader)')
    expect(() => importPromptfoo('tests:\n  - vars: { q: 1 }\n    assert: [{ type: llm-rubric, value: Is polite }, { type: factuality, value: Paris }]'))
      .toThrow(/has model-graded assertions \(llm-rubric, factuality\) but names no grader: set defaultTest.options.provider .* --grader local:heuristic grades llm-rubric offline/)
    // Deterministic assertions need no grader.
    expect(importPromptfoo(config('  - vars: { question: q }\n    assert:\n      - { type: contains, value: x }')).evaluator).not.toHaveProperty('model')
  })

  it('refuses a config with an assertion it cannot run, naming each by type, count, tests and why: none is left out of a verdict', () => {
    const text = config(`  - description: one
    vars: { question: q }
    assert:
      - { type: moderation }
      - { type: regex, value: "(?=x)" }
      - { type: contains, value: x, rubricPrompt: Grade it }
  - description: two
    vars: { question: q }
    assert:
      - { type: moderation }
      - { type: contains }`)
    let refusal: JudgeflowError | undefined
    try {
      importPromptfoo(text)
    }
    catch (error) {
      refusal = error as JudgeflowError
    }
    expect(refusal).toBeInstanceOf(JudgeflowError)
    expect(refusal!.message).toMatch(/^the promptfoo config has 5 assertions judgeflow cannot run, so nothing was imported \(leaving them out would let a test pass that promptfoo fails\): moderation ×2 \("one", "two"\): /)
    expect(refusal!.details).toEqual({
      unsupported: [
        { type: 'moderation', count: 2, tests: ['one', 'two'], reason: '"moderation" is not an assertion type judgeflow runs' },
        { type: 'regex', count: 1, tests: ['one'], reason: expect.stringContaining('RE2 syntax') },
        { type: 'contains', count: 1, tests: ['one'], reason: 'its setting "rubricPrompt" is not imported (judgeflow has no equivalent)' },
        { type: 'contains', count: 1, tests: ['two'], reason: 'must have a text or number value' },
      ],
    })
  })

  it('with skipUnsupported, imports such a config: each assertion it cannot run errors its case (never passes it), and a note names them', async () => {
    const text = config(`  - description: one
    vars: { question: q }
    assert:
      - { type: moderation }
      - { type: contains, value: fine }
  - description: two
    vars: { question: q }
    assert:
      - { type: contains, value: fine }`)
    const imported = importPromptfoo(text, { skipUnsupported: true })
    expect(imported.notes).toContain('moderation ×1 is not run (--skip-unsupported: "moderation" is not an assertion type judgeflow runs); the case that holds it errors, never pass')
    expect(imported.cases[0]!.input.assert).toEqual([
      { type: 'skipped', value: { type: 'moderation', reason: '"moderation" is not an assertion type judgeflow runs' } },
      { type: 'contains', value: 'fine' },
    ])
    // The answer passes every assertion that runs: the case with the skipped one still errors, naming it.
    const workflow = structuredClone(imported.workflow!) as { nodes: Array<{ type: string, pinned?: string[] }> }
    for (const node of workflow.nodes) if (node.type === 'llm') node.pinned = ['fine']
    const { options } = testDeps()
    const first = await runWorkflow(workflow, { ...options, input: imported.cases[0]!.input })
    expect(first.status).toBe('failed')
    expect(first.steps.judge!.error!.message).toContain('assert[0]: "moderation" was not imported, as judgeflow cannot run it ("moderation" is not an assertion type judgeflow runs), so the case errors rather than pass without it (--skip-unsupported)')
    const second = await runWorkflow(workflow, { ...options, input: imported.cases[1]!.input })
    expect(second.steps.judge!.output).toMatchObject({ passed: true })
  })

  it('reads a provider\'s endpoint (apiBaseUrl, apiHost) for the run, refusing a suite that would need two of one kind', () => {
    const grid = (providers: string, extra = '') => `prompts: ["Say {{ a }}"]
providers:
${providers}
${extra}
tests:
  - vars: { a: hi }
    assert: [{ type: llm-rubric, value: greets }]
`
    const local = importPromptfoo(grid('  - { id: openai:chat:llama3, config: { apiBaseUrl: "http://localhost:11434/v1" } }'))
    expect(local.endpoints).toEqual({ OPENAI_BASE_URL: 'http://localhost:11434/v1' })
    expect(local.notes.join('\n')).toContain('providers[0].config: its endpoint http://localhost:11434/v1 is where judgeflow test calls every openai: model of this suite (OPENAI_BASE_URL)')
    expect(importPromptfoo(grid('  - { id: openai:gpt-4o-mini, config: { apiHost: "llm.example.com" } }')).endpoints).toEqual({ OPENAI_BASE_URL: 'https://llm.example.com/v1' })
    // A provider at the default endpoint beside one at its own: judgeflow cannot call both in one run.
    expect(() => importPromptfoo(grid('  - { id: openai:llama3, config: { apiBaseUrl: "http://localhost:11434/v1" } }\n  - openai:gpt-4o-mini'))).toThrow('the promptfoo config, providers[1]: it calls the default endpoint while providers[0] calls http://localhost:11434/v1; judgeflow calls one endpoint per provider kind in a run (OPENAI_BASE_URL)')
    // An OpenAI grader that is not one of the providers would be sent to the local endpoint too: refused, saying why.
    expect(() => importPromptfoo(grid('  - { id: openai:llama3, config: { apiBaseUrl: "http://localhost:11434/v1" } }', 'defaultTest: { options: { provider: openai:gpt-4o } }'))).toThrow('judgeflow would call the grader openai:gpt-4o there too')
    // An Anthropic grader is called at its own endpoint: fine.
    expect(importPromptfoo(grid('  - { id: openai:llama3, config: { apiBaseUrl: "http://localhost:11434/v1" } }', 'defaultTest: { options: { provider: anthropic:claude-3-5-haiku-latest } }')).endpoints).toEqual({ OPENAI_BASE_URL: 'http://localhost:11434/v1' })
    expect(() => importPromptfoo(grid('  - { id: openai:llama3, config: { apiBaseUrl: "file:///etc" } }'))).toThrow('providers[0].config.apiBaseUrl: must be an http(s) URL')
  })

  it('refuses select-best where a test has one output, and a second select-best promptfoo would leave out', () => {
    const one = config(`  - vars: { question: q }
    assert: [{ type: select-best, value: the clearest }]`)
    expect(() => importPromptfoo(one)).toThrow('test "test-1": select-best picks the best of a test\'s outputs across its prompts × providers, and this config has one prompt and one provider, so each test has one output')
    const two = one.replace('providers:\n', 'providers:\n  - openai:chat:gpt-4o\n').replace('[{ type: select-best, value: the clearest }]', '[{ type: select-best, value: the clearest }, { type: select-best, value: the shortest }]')
    expect(() => importPromptfoo(two)).toThrow('test "test-1": it has 2 select-best assertions; promptfoo decides only the first and leaves the others out, so keep one')
  })

  it('says so when a not- form is graded as the plain form, as promptfoo grades it; carries options.factuality to the factuality assertions', () => {
    const imported = importPromptfoo(config(`  - vars: { question: q }
    options: { factuality: { subset: 0 } }
    assert: [{ type: not-factuality, value: Paris }, { type: factuality, value: Lyon }]`, 'defaultTest:\n  options:\n    provider: openai:gpt-4o'))
    expect(imported.notes).toContain('not-factuality: promptfoo grades it as factuality itself, without inverting it, and so does judgeflow, to keep your verdicts; write an llm-rubric that asks the opposite to invert it')
    expect(imported.cases[0]!.input.assert).toEqual([
      { type: 'not-factuality', value: 'Paris', config: { factuality: { subset: 0 } } }, { type: 'factuality', value: 'Lyon', config: { factuality: { subset: 0 } } },
    ])
    expect(() => importPromptfoo(config('  - vars: { question: q }\n    options: { factuality: { subsets: 0 } }\n    assert: [{ type: contains, value: x }]'))).toThrow('tests[0].options.factuality.subsets: not a factuality category')
  })

  it('reads the __expected shorthand of a CSV test file', () => {
    expect(assertionFromCell('contains: Paris')).toEqual({ type: 'contains', value: 'Paris' })
    expect(assertionFromCell('not-icontains: sorry')).toEqual({ type: 'not-icontains', value: 'sorry' })
    expect(assertionFromCell('levenshtein(3): Acme')).toEqual({ type: 'levenshtein', value: 'Acme', threshold: 3 })
    expect(assertionFromCell('grade: Is polite')).toEqual({ type: 'llm-rubric', value: 'Is polite' })
    expect(assertionFromCell('fn: output.length > 3')).toEqual({ type: 'javascript', value: 'output.length > 3' })
    expect(assertionFromCell('is-json')).toEqual({ type: 'is-json' })
    expect(assertionFromCell('Paris: the capital')).toEqual({ type: 'equals', value: 'Paris: the capital' })
    // Every type judgeflow runs is read as named, and so are promptfoo's it does not run, for the import to refuse.
    expect(assertionFromCell('similar(0.8): Paris')).toEqual({ type: 'similar', value: 'Paris', threshold: 0.8 })
    expect(assertionFromCell('not-context-recall: Paris')).toEqual({ type: 'not-context-recall', value: 'Paris' })
    expect(assertionFromCell('moderation: hate')).toEqual({ type: 'moderation', value: 'hate' })
  })
})

describe('promptfoo import: the dataset', () => {
  it('vars become the input (defaultTest\'s first, its assertions first), descriptions unique ids', () => {
    const imported = importPromptfoo(config(`  - description: capital
    vars: { question: Capital of France?, city: Paris }
    assert: [{ type: icontains, value: "{{city}}" }]
  - description: capital
    vars: { question: Capital of Spain?, city: Madrid }
    assert: [{ type: icontains, value: "{{city}}" }]
  - vars: { question: Capital of Italy?, city: Rome, lang: it }`, 'defaultTest:\n  vars: { lang: en }\n  assert: [{ type: llm-rubric, value: Names the capital }]'), { judge: 'local:heuristic' })
    expect(imported.name).toBe('Support')
    const rubric = { type: 'llm-rubric', value: 'Names the capital' }
    expect(imported.cases).toEqual([
      { id: 'capital', input: { lang: 'en', question: 'Capital of France?', city: 'Paris', assert: [rubric, { type: 'icontains', value: 'Paris' }], assert_threshold: null } },
      { id: 'capital (2)', input: { lang: 'en', question: 'Capital of Spain?', city: 'Madrid', assert: [rubric, { type: 'icontains', value: 'Madrid' }], assert_threshold: null } },
      { id: 'test-3', input: { lang: 'it', question: 'Capital of Italy?', city: 'Rome', assert: [rubric], assert_threshold: null } },
    ])
    expect(imported.evaluators).toEqual([{ id: 'assertions', cases: 3, config: expect.objectContaining({ evaluation_type: 'assertions', model: 'local:heuristic' }) }])
  })

  it('runs a test once per item of each var holding a list of texts, every combination, as promptfoo expands it', () => {
    const imported = importPromptfoo('tests:\n  - description: t\n    vars: { lang: [en, fr], tone: [dry, warm], rows: [[1, 2]] }\n    assert: [{ type: contains, value: "{{lang}}" }]')
    expect(imported.cases.map(c => [c.id, c.input.lang, c.input.tone, c.input.rows, (c.input.assert as Array<{ value: string }>)[0]!.value])).toEqual([
      ['t', 'en', 'dry', [[1, 2]], 'en'], ['t (2)', 'en', 'warm', [[1, 2]], 'en'], ['t (3)', 'fr', 'dry', [[1, 2]], 'fr'], ['t (4)', 'fr', 'warm', [[1, 2]], 'fr'],
    ])
  })

  it('reads tests from a CSV file the config names, through the reader it is given', () => {
    const text = 'prompts: ["Q: {{question}}"]\nproviders: [openai:gpt-4o-mini]\ntests: file://cases.csv'
    const files: Record<string, string> = { 'cases.csv': 'question,__expected1,__expected2,__description\nHi?,icontains: hello,starts-with: Hi,greeting\nBye?,Goodbye,,farewell\n' }
    const imported = importPromptfoo(text, { readFile: path => files[path]! })
    expect(imported.cases.map(c => c.id)).toEqual(['greeting', 'farewell'])
    expect(imported.cases[1]!.input).toMatchObject({ question: 'Bye?', assert: [{ type: 'equals', value: 'Goodbye' }] })
    expect(() => importPromptfoo(text)).toThrow('tests[0]: "file://cases.csv" is a file reference, which only the command line reads (judgeflow import promptfoo); put its content in the config.')
  })

  it('refuses what it cannot read, naming the field', () => {
    expect(() => importPromptfoo('tests: [')).toThrow(/^the promptfoo config, line 1: not valid YAML or JSON: /)
    expect(() => importPromptfoo('prompts: [x]')).toThrow('the promptfoo config has no tests: give tests with vars and assert.')
    expect(() => importPromptfoo('tests:\n  - vars: 3')).toThrow(/^the promptfoo config, tests\[0\]/)
    expect(() => importPromptfoo('tests:\n  - vars: { a: 1 }\n    assert: [{ value: x }]')).toThrow(/tests\[0\]\.assert\[0\]\.type: /)
    expect(() => importPromptfoo('tests:\n  - vars: { assert: 1 }')).toThrow('test "test-1", vars.assert: "assert" is the input field that holds the test\'s assertions; rename the var.')
    expect(() => importPromptfoo('scenarios: { a: 1 }\ntests: [{ vars: { a: 1 } }]')).toThrow('the promptfoo config, scenarios: must be a list.')
    expect(() => importPromptfoo('tests: [{ vars: { a: 1 }, assert: [{ $ref: "#/assertionTemplates/missing" }] }]')).toThrow('$ref "#/assertionTemplates/missing" points to nothing')
    expect(() => importPromptfoo('tests: [{ vars: { a: 1 }, assert: [{ $ref: "other.yaml#/x" }] }]')).toThrow('points outside the config')
    expect(() => importPromptfoo(`${config('  - vars: { q: 1 }\n    assert: [{ type: contains, value: x }]').replace('{{ question }}', '{{ env.HOME }}')}`)).toThrow('{{ env.HOME }} reads an environment variable the config\'s env does not set')
    expect(() => importPromptfoo(config('  - vars: { q: 1 }\n    assert: [{ type: contains, value: x }]').replace('openai:chat:gpt-4o-mini', 'ollama:llama3'))).toThrow('providers[0]: "ollama:llama3" has no judgeflow equivalent')
    expect(() => importPromptfoo(config('  - vars: { q: 1 }\n    assert: [{ type: contains, value: x }]').replace('{{ question }}', '{{ question | upper }}'))).toThrow('prompts[0]: "{{ question | upper }}" is not imported')
  })
})

describe('promptfoo import: text nested too deep', () => {
  const deep = `${'['.repeat(3000)}${']'.repeat(3000)}`

  it('refuses a config nested past the limit, YAML or JSON, naming the limit and where, every time', () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(() => importPromptfoo(deep)).toThrow(`the promptfoo config nests objects and arrays more than 64 levels deep (at ${'[0]'.repeat(64)}): flatten it, or raise JUDGEFLOW_MAX_JSON_DEPTH (at most 1000).`)
      expect(() => importPromptfoo(`tests: ${deep}`)).toThrow('the promptfoo config nests objects and arrays more than 64 levels deep (at line 1, column 71)')
    }
    expect(() => importPromptfoo('tests:\n  - vars: { q: [[[x]]] }', { maxDepth: 5 })).toThrow('more than 5 levels deep (at line 2, column 17)')
  })

  it('refuses tests files nested past the limit or malformed, naming the file and the line', () => {
    const files: Record<string, string> = {
      'deep.yaml': `- vars: { q: x }\n- vars: ${deep}\n`,
      'deep.json': `[{"vars":${deep}}]`,
      'deep.jsonl': `{"vars":{"q":"x"}}\n\n{"vars":${deep}}\n`,
      'broken.jsonl': '{"vars":{"q":"x"}}\n{"vars":\n',
      'proto.jsonl': '{"vars":{"q":"x"}}\n{"vars":{"q":"y"},"__proto__":{"polluted":true}}\n',
      'broken.csv': 'q,__expected\n"x,y\n',
      'proto.csv': 'q,__proto__\nx,y\n',
    }
    const importing = (file: string) => () => importPromptfoo(`tests: file://${file}`, { readFile: path => files[path]! })
    expect(importing('deep.yaml')).toThrow('the tests file "deep.yaml" nests objects and arrays more than 64 levels deep (at line 2, column 71)')
    expect(importing('deep.json')).toThrow(`the tests file "deep.json" nests objects and arrays more than 64 levels deep (at [0].vars${'[0]'.repeat(62)})`)
    expect(importing('deep.jsonl')).toThrow(`the tests file "deep.jsonl", line 3 nests objects and arrays more than 64 levels deep (at vars${'[0]'.repeat(63)})`)
    expect(importing('broken.jsonl')).toThrow(/^the tests file "broken\.jsonl", line 2 is not valid JSON: /)
    expect(importing('proto.jsonl')).toThrow('the tests file "proto.jsonl", line 2 is refused: "__proto__" is not allowed as a key (at (top level)).')
    expect(importing('broken.csv')).toThrow(/^the tests file "broken\.csv", line 2: not valid CSV: /)
    expect(importing('proto.csv')).toThrow('tests file "proto.csv": "__proto__" is not allowed as a column.')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe('promptfoo import: the workflow', () => {
  it('keeps the grid: each test × prompt × provider is its own case, routed to its LLM step and judged there', async () => {
    const imported = importPromptfoo(`prompts: ["Answer: {{ question }}", { raw: "Briefly: {{question}}", label: brief }]
providers: [openai:gpt-4o-mini, { id: anthropic:messages:claude-3-5-haiku, label: Claude }]
tests:
  - description: hello
    vars: { question: q }
    assert: [{ type: contains, value: x }]`)
    const workflow = validatedWorkflow(imported.workflow, defaultRegistry)
    const llms = workflow.nodes.filter(n => n.type === 'llm')
    expect(llms.map(n => [n.id, n.config.model, n.config.prompt])).toEqual([
      ['prompt_1_openai_gpt_4o_mini', 'openai:gpt-4o-mini', 'Answer: {{input.question}}'],
      ['prompt_2_openai_gpt_4o_mini', 'openai:gpt-4o-mini', 'Briefly: {{input.question}}'],
      ['prompt_1_claude', 'anthropic:claude-3-5-haiku', 'Answer: {{input.question}}'],
      ['prompt_2_claude', 'anthropic:claude-3-5-haiku', 'Briefly: {{input.question}}'],
    ])
    // Provider by provider, as promptfoo orders its columns.
    expect(imported.cases.map(c => [c.id, c.input.cell, c.tags])).toEqual([
      ['hello · prompt 1 · openai:gpt-4o-mini', 1, ['test:hello']],
      ['hello · brief · openai:gpt-4o-mini', 2, ['test:hello']],
      ['hello · prompt 1 · Claude', 3, ['test:hello']],
      ['hello · brief · Claude', 4, ['test:hello']],
    ])
    expect(workflow.nodes.find(n => n.id === 'prompt_2_claude_judge')!.config).toMatchObject({ evaluation_type: 'assertions', content: '{{steps.prompt_2_claude.text}}' })
    // A provider's failure stays its own: each cell has its own verdict.
    const answers: Record<string, string> = { prompt_1_openai_gpt_4o_mini: 'x', prompt_1_claude: 'no', prompt_2_openai_gpt_4o_mini: 'x', prompt_2_claude: 'x' }
    const out: Array<string | null> = []
    for (const item of imported.cases) {
      const copy = structuredClone(imported.workflow!) as { nodes: Array<{ id: string, type: string, pinned?: string[] }> }
      for (const node of copy.nodes) if (node.type === 'llm') node.pinned = [answers[node.id]!]
      const { options } = testDeps()
      const result = await runWorkflow(copy, { ...options, input: item.input })
      out.push(result.verdict ?? (result.steps[Object.keys(result.steps).find(id => id.endsWith('_judge') && result.steps[id]!.status === 'succeeded')!]!.output as { passed: boolean }).passed ? 'pass' : 'fail')
    }
    expect(out).toEqual(['pass', 'pass', 'fail', 'pass'])
  })

  it('gives promptfoo\'s verdicts where the old import silently differed', async () => {
    const imported = importPromptfoo(config(`  - description: negated
    vars: { question: q }
    assert: [{ type: contains, value: refund }, { type: not-icontains, value: SORRY }]
  - description: prefix
    vars: { question: q }
    assert: [{ type: not-starts-with, value: "As an AI" }]
  - description: fenced
    vars: { question: q }
    assert: [{ type: is-json }]
  - description: weighted
    vars: { question: q }
    threshold: 0.75
    assert: [{ type: contains, value: refund, weight: 3 }, { type: contains, value: days, weight: 1 }]`))
    expect(await verdicts(imported, {
      negated: 'Sorry, a refund takes time.', prefix: 'As an AI, I think so.', fenced: '```json\n{"a":1}\n```', weighted: 'A refund, soon.',
    })).toEqual({ negated: 'fail', prefix: 'fail', fenced: 'fail', weighted: 'pass' })
    expect(await verdicts(imported, {
      negated: 'A refund takes time.', prefix: 'I think so.', fenced: '{"a":1}', weighted: 'Within 30 days.',
    })).toEqual({ negated: 'pass', prefix: 'pass', fenced: 'pass', weighted: 'fail' })
  })

  it('notes the settings it leaves out', () => {
    const imported = importPromptfoo(`prompts: [hi]
providers: [{ id: openai:gpt-4o-mini, config: { temperature: 0, seed: 7 } }]
tests:
  - vars: { q: 1 }
    assert: [{ type: contains, value: x }]`)
    expect(imported.notes).toEqual(['providers[0]: config seed not imported'])
    expect(imported.workflow!.nodes).toContainEqual({ id: 'generate', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'hi', temperature: 0 } })
    expect(importPromptfoo('prompts: [hi]\ntests: [{ vars: { q: 1 }, assert: [{ type: contains, value: x }] }]').notes).toContain('no workflow: the config needs both prompts and providers for one')
  })

  it('builds no workflow without prompts and providers; the evaluator then judges a case alone', () => {
    const imported = importPromptfoo('tests:\n  - vars: { actual: "4" }\n    assert: [{ type: equals, value: "4" }]')
    expect(imported.workflow).toBeUndefined()
    expect(imported.evaluator).toMatchObject({ evaluation_type: 'assertions', assert: '{{input.assert}}' })
  })
})

describe('promptfoo import: settings beside the tests', () => {
  it('pairs each provider with the prompts it names (providers[].prompts), refusing a name no prompt has', () => {
    const text = `prompts:
  - { raw: "Short: {{q}}", label: short }
  - { raw: "Long: {{q}}", label: long }
providers:
  - { id: openai:gpt-4o-mini, prompts: [short] }
  - { id: anthropic:claude-3-5-haiku }
tests:
  - vars: { q: hi }
    assert: [{ type: contains, value: x }]`
    const llms = (importPromptfoo(text).workflow!.nodes as Array<{ type: string, config: { model: string, prompt: string } }>).filter(node => node.type === 'llm')
    expect(llms.map(node => `${node.config.model} ${node.config.prompt}`)).toEqual([
      'openai:gpt-4o-mini Short: {{input.q}}', 'anthropic:claude-3-5-haiku Short: {{input.q}}', 'anthropic:claude-3-5-haiku Long: {{input.q}}',
    ])
    expect(() => importPromptfoo(text.replace('prompts: [short]', 'prompts: [shrt]'))).toThrow('providers[0].prompts[0]: no prompt is labelled "shrt"')
  })

  it('refuses what would change what is judged (code hooks, a response format in another form); reads a response format, an output transform, file vars and chat prompts', () => {
    const base = config('  - vars: { question: q }\n    assert: [{ type: contains, value: x }]')
    // An output transform is JavaScript run in the sandbox: the test's own, else defaultTest's.
    const transformed = importPromptfoo(`${config('  - vars: { question: q }\n    options: { transform: output.trim() }\n    assert: [{ type: contains, value: x }]\n  - vars: { question: r }\n    assert: [{ type: contains, value: y }]')}\ndefaultTest:\n  options: { transform: output.toUpperCase() }`)
    expect(transformed.cases.map(c => c.input.assert_transform)).toEqual(['output.trim()', 'output.toUpperCase()'])
    expect(transformed.evaluator).toMatchObject({ transform: '{{input.assert_transform}}' })
    expect(() => importPromptfoo(`${base}\ndefaultTest:\n  options: { transform: file://t.js }`)).toThrow('defaultTest.options.transform: give the JavaScript inline (file:// references are not read)')
    // A response_format goes to the LLM step (OpenAI's; a form it does not take, or an anthropic provider, is refused).
    const json = importPromptfoo(base.replace('config: { temperature: 0.2, max_tokens: 300 }', 'config: { response_format: { type: json_object } }'))
    expect(json.workflow!.nodes).toContainEqual(expect.objectContaining({ id: 'generate', config: expect.objectContaining({ response_format: { type: 'json_object' } }) }))
    expect(() => importPromptfoo(base.replace('config: { temperature: 0.2, max_tokens: 300 }', 'config: { response_format: file://format.json }')))
      .toThrow('providers[0].config.response_format: give { type: json_object }')
    expect(() => importPromptfoo(base.replace('openai:chat:gpt-4o-mini', 'anthropic:claude-3-5-haiku').replace('config: { temperature: 0.2, max_tokens: 300 }', 'config: { response_format: { type: json_object } }')))
      .toThrow('a response_format is not imported for an anthropic provider')
    // A file var is loaded as promptfoo loads it (text trimmed, YAML as its JSON); code or media is refused.
    const files: Record<string, string> = { 'question.txt': '  Where is it?\n', 'q.yaml': 'a: 1\n', 'chat.json': '[{"role":"system","content":"Be brief."},{"role":"user","content":"Q: {{question}}"}]' }
    const loaded = importPromptfoo(config('  - vars: { question: "file://question.txt", other: "file://q.yaml" }\n    assert: [{ type: contains, value: x }]').replace('  - "Answer: {{ question }}"', '  - file://chat.json'), { readFile: path => files[path]! })
    expect(loaded.cases[0]!.input).toMatchObject({ question: 'Where is it?', other: '{"a":1}' })
    expect(loaded.workflow!.nodes).toContainEqual(expect.objectContaining({ id: 'generate', config: expect.objectContaining({ system: 'Be brief.', prompt: 'Q: {{input.question}}' }) }))
    expect(() => importPromptfoo(config('  - vars: { question: "file://make.py" }\n    assert: [{ type: contains, value: x }]'), { readFile: () => '' }))
      .toThrow('tests[0].vars.question: "file://make.py" runs code or holds media, which the import does not load into a var')
    expect(() => importPromptfoo(base.replace('  - "Answer: {{ question }}"', '  - { raw: "Answer: {{ question }}", function: true }'))).toThrow('prompts[0].function: not imported')
    // A message's content may be text parts (joined); an image part is refused, saying why.
    const parts = '[{"role":"user","content":[{"type":"text","text":"Q: "},{"type":"text","text":"{{question}}"}]}]'
    const image = '[{"role":"user","content":[{"type":"text","text":"Q"},{"type":"image_url","image_url":{"url":"x"}}]}]'
    const chat = (file: string) => importPromptfoo(base.replace('  - "Answer: {{ question }}"', '  - file://chat.json'), { readFile: () => file })
    expect(chat(parts).workflow!.nodes).toContainEqual(expect.objectContaining({ id: 'generate', config: expect.objectContaining({ prompt: 'Q: {{input.question}}' }) }))
    expect(() => chat(image)).toThrow('a content part other than { type: text, text } — an image — is not sent by an LLM step')
    // prompts as a map of each prompt to its label, as promptfoo reads it.
    const mapped = importPromptfoo(base.replace('  - "Answer: {{ question }}"', '  "Answer: {{ question }}": answer\n  "Reply: {{ question }}": reply'))
    expect(mapped.cases.map(c => c.id)).toEqual(['test-1 · answer · openai:gpt-4o-mini', 'test-1 · reply · openai:gpt-4o-mini'])
    expect(() => importPromptfoo(`${base}\nextensions: [file://hooks.js:extensionHook]`)).toThrow('the promptfoo config, extensions: it is not imported, and it may change what promptfoo runs or judges (it runs code)')
  })

  it('expands scenarios (each config × each test, plain tests first), resolves $ref templates and renders {{ env.X }} from the config\'s env', () => {
    const imported = importPromptfoo(`env: { PLACE: harbour }
prompts: ["Hi from the {{ env.PLACE }}: {{greeting}}"]
providers: [openai:gpt-4o-mini]
assertionTemplates:
  place: { type: contains, value: harbour }
tests:
  - description: plain
    vars: { greeting: Hi }
    assert: [{ $ref: "#/assertionTemplates/place" }]
scenarios:
  - config: [{ vars: { greeting: Hello } }, { vars: { greeting: Hola } }]
    tests:
      - description: s
        assert: [{ $ref: "#/assertionTemplates/place" }]`)
    expect(imported.cases.map(c => [c.id, c.input.greeting, c.input.assert])).toEqual([
      ['plain', 'Hi', [{ type: 'contains', value: 'harbour' }]],
      ['s', 'Hello', [{ type: 'contains', value: 'harbour' }]],
      ['s (2)', 'Hola', [{ type: 'contains', value: 'harbour' }]],
    ])
    expect(imported.workflow!.nodes).toContainEqual(expect.objectContaining({ type: 'llm', config: expect.objectContaining({ prompt: 'Hi from the harbour: {{input.greeting}}' }) }))
  })

  it('notes what changes no verdict, saying what to use instead', () => {
    const imported = importPromptfoo(`${config('  - vars: { question: q }\n    assert: [{ type: contains, value: x }]')}\nenv: { FOO: bar }\noutputPath: out.json\nevaluateOptions: { repeat: 3 }`)
    expect(imported.notes).toEqual(expect.arrayContaining([
      'outputPath: write the report with judgeflow test --report',
      'evaluateOptions: judgeflow test runs the config with --repeat 3 unless told otherwise',
    ]))
    // A delay between test cases runs them one at a time, as promptfoo runs them.
    const paced = importPromptfoo(`${config('  - vars: { question: q }\n    assert: [{ type: contains, value: x }]')}\nevaluateOptions: { delay: 500, maxConcurrency: 4, cache: false }`)
    expect(paced.run).toEqual({ delay_ms: 500, concurrency: 1, cache: false })
    expect(paced.notes).toContain('evaluateOptions: judgeflow test runs the config with --concurrency 1 and --delay 500 and --no-cache unless told otherwise')
    expect(() => importPromptfoo(`${config('  - vars: { question: q }\n    assert: [{ type: contains, value: x }]')}\nevaluateOptions: { delay: -1 }`)).toThrow('evaluateOptions.delay: must be a whole number from 0 to 600000')
  })
})
