import { describe, expect, it } from 'vitest'
import { JudgeflowError, runWorkflow, validatedWorkflow } from '../../../engine'
import { importPromptfoo, type PromptfooImport } from '../../../engine/datasets'
import { assertionFromCell, levenshteinThreshold } from '../../../engine/datasets/promptfoo-assertions'
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

/** One test with one assertion, and the scorer it became. */
function scorerOf(assertion: string): unknown {
  const imported = importPromptfoo(config(`  - vars: { question: q }\n    assert:\n      - ${assertion}`))
  return (imported.evaluator!.scorers as unknown[])[0]
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
    out[item.id] = result.verdict
  }
  return out
}

describe('promptfoo import: assertions', () => {
  it('maps each deterministic assertion to its scorer, the value in the scorer\'s options', () => {
    expect(scorerOf('{ type: equals, value: Paris }')).toEqual({ type: 'exact-match', weight: 1, options: { trim: false, value: 'Paris' } })
    expect(scorerOf('{ type: contains, value: Paris }')).toEqual({ type: 'contains', weight: 1, options: { trim: false, value: 'Paris' } })
    expect(scorerOf('{ type: icontains, value: paris, weight: 2 }')).toEqual({ type: 'contains', weight: 2, options: { trim: false, ignore_case: true, value: 'paris' } })
    expect(scorerOf('{ type: contains-all, value: [a, b] }')).toEqual({ type: 'contains', weight: 1, options: { trim: false, values: ['a', 'b'] } })
    expect(scorerOf('{ type: icontains-all, value: [a, b] }')).toEqual({ type: 'contains', weight: 1, options: { trim: false, ignore_case: true, values: ['a', 'b'] } })
    expect(scorerOf('{ type: starts-with, value: "Hi (there)." }')).toEqual({ type: 'regex', weight: 1, options: { pattern: '^Hi \\(there\\)\\.' } })
    expect(scorerOf('{ type: regex, value: "^\\\\d+ days$" }')).toEqual({ type: 'regex', weight: 1, options: { pattern: '^\\d+ days$' } })
    expect(scorerOf('{ type: is-json }')).toEqual({ type: 'json-valid', weight: 1, options: {} })
    expect(scorerOf('{ type: is-json, value: { type: object, required: [id] } }')).toEqual({ type: 'json-schema', weight: 1, options: { schema: { type: 'object', required: ['id'] } } })
    // promptfoo passes levenshtein at an edit distance ≤ 5 by default: 1 − 5/10 for a 10-character answer.
    expect(scorerOf('{ type: levenshtein, value: "Acme Start" }')).toEqual({ type: 'levenshtein', weight: 1, threshold: 0.5, options: { value: 'Acme Start' } })
    expect(scorerOf('{ type: levenshtein, value: "Acme Starter", threshold: 3 }')).toMatchObject({ threshold: 0.75 })
  })

  it('levenshtein: the similarity threshold from the largest distance and the shortest expected text', () => {
    expect(levenshteinThreshold(2, ['abcdefghij', 'abcd'])).toBe(0.5)
    expect(levenshteinThreshold(5, ['abc'])).toBe(0)
    expect(levenshteinThreshold(0, ['abc'])).toBe(1)
  })

  it('maps llm-rubric to a criteria judge: the rubric as a criterion, the grader or the given judge as its model', () => {
    const rubric = '      - { type: llm-rubric, value: "Is polite" }'
    const local = importPromptfoo(config(`  - vars: { question: q }\n    assert:\n${rubric}`), { judge: 'local:heuristic' })
    expect(local.evaluator).toEqual({ evaluation_type: 'criteria', model: 'local:heuristic', criteria: [{ name: 'llm_rubric_1', description: 'Is polite' }], pass_threshold: 0.5 })
    const judged = importPromptfoo(config(`  - vars: { question: q }\n    assert:\n${rubric}`), { judge: 'openai:gpt-4o' })
    expect(judged.evaluator).toMatchObject({ model: 'openai:gpt-4o' })
    // The grader promptfoo is given, in each of its forms, wins over the one given to the import.
    for (const provider of ['anthropic:messages:claude-3-5-haiku', '{ id: anthropic:messages:claude-3-5-haiku }', '{ text: anthropic:messages:claude-3-5-haiku, embedding: openai:embedding:text-embedding-3-small }', '{ text: { id: anthropic:claude-3-5-haiku } }']) {
      const graded = importPromptfoo(config(`  - vars: { question: q }\n    assert:\n${rubric}`, `defaultTest:\n  options:\n    provider: ${provider}`), { judge: 'openai:gpt-4o' })
      expect(graded.evaluator).toMatchObject({ model: 'anthropic:claude-3-5-haiku' })
    }
  })

  it('judges each llm-rubric on its own, as promptfoo does: one judge per rubric, each held to its own threshold', async () => {
    const imported = importPromptfoo(config(`  - description: polite and short
    vars: { question: q }
    assert:
      - { type: llm-rubric, value: "Is polite" }
      - { type: llm-rubric, value: "Is short", threshold: 0.8 }`), { judge: 'openai:gpt-4o' })
    expect(imported.evaluators).toEqual([
      { id: 'rubric_1', cases: 1, config: { evaluation_type: 'criteria', model: 'openai:gpt-4o', criteria: [{ name: 'llm_rubric_1', description: 'Is polite' }], pass_threshold: 0.5 } },
      { id: 'rubric_2', cases: 1, config: { evaluation_type: 'criteria', model: 'openai:gpt-4o', criteria: [{ name: 'llm_rubric_2', description: 'Is short' }], pass_threshold: 0.8 } },
    ])
    // The case passes only when both judges pass: the workflow fails it when either fails.
    const nodes = (imported.workflow!.nodes as Array<{ id: string }>).map(node => node.id)
    expect(nodes).toEqual(expect.arrayContaining(['generate_rubric_1', 'generate_rubric_2', 'verdict', 'failed', 'passed']))
  })

  it('refuses llm-rubric without a grader, rather than judging it offline without a word', () => {
    expect(() => importPromptfoo(config('  - vars: { question: q }\n    assert:\n      - { type: llm-rubric, value: Is polite }')))
      .toThrow(/has llm-rubric assertions but names no grader: set defaultTest.options.provider .* --judge local:heuristic judges offline/)
    // Deterministic assertions need no grader.
    expect(importPromptfoo(config('  - vars: { question: q }\n    assert:\n      - { type: contains, value: x }')).evaluators).toHaveLength(1)
  })

  it('refuses a config with an assertion it cannot map, naming each by type, count, tests and why: none is left out of a verdict', () => {
    const text = config(`  - description: one
    vars: { question: q }
    assert:
      - { type: not-contains, value: sorry }
      - { type: javascript, value: output.length < 10 }
      - { type: regex, value: "(?=x)" }
  - description: two
    vars: { question: q }
    assert:
      - { type: not-contains, value: sorry }
      - { type: contains, value: x, transform: output.toUpperCase() }
      - { type: contains, value: ok }`)
    let refusal: JudgeflowError | undefined
    try {
      importPromptfoo(text)
    }
    catch (error) {
      refusal = error as JudgeflowError
    }
    expect(refusal).toBeInstanceOf(JudgeflowError)
    expect(refusal!.message).toMatch(/^the promptfoo config has 5 assertions judgeflow cannot run, so nothing was imported \(leaving them out would let a test pass that promptfoo fails\): not-contains ×2 \("one", "two"\): .*no negated form/)
    expect(refusal!.details).toEqual({
      unsupported: [
        { type: 'not-contains', count: 2, tests: ['one', 'two'], reason: expect.stringContaining('no negated form') },
        { type: 'javascript', count: 1, tests: ['one'], reason: 'judgeflow has no equivalent' },
        { type: 'regex', count: 1, tests: ['one'], reason: expect.stringContaining('RE2 syntax') },
        { type: 'contains', count: 1, tests: ['two'], reason: expect.stringContaining('transform') },
      ],
    })
  })

  it('reads the __expected shorthand of a CSV test file', () => {
    expect(assertionFromCell('contains: Paris')).toEqual({ type: 'contains', value: 'Paris' })
    expect(assertionFromCell('not-icontains: sorry')).toEqual({ type: 'not-icontains', value: 'sorry' })
    expect(assertionFromCell('levenshtein(3): Acme')).toEqual({ type: 'levenshtein', value: 'Acme', threshold: 3 })
    expect(assertionFromCell('grade: Is polite')).toEqual({ type: 'llm-rubric', value: 'Is polite' })
    expect(assertionFromCell('fn: output.length > 3')).toEqual({ type: 'javascript', value: 'output.length > 3' })
    expect(assertionFromCell('is-json')).toEqual({ type: 'is-json' })
    expect(assertionFromCell('Paris: the capital')).toEqual({ type: 'equals', value: 'Paris: the capital' })
  })
})

describe('promptfoo import: the dataset', () => {
  it('vars become the input (defaultTest\'s first), descriptions unique ids; values that differ stay in the case, shared ones in the config', () => {
    const imported = importPromptfoo(config(`  - description: capital
    vars: { question: Capital of France?, city: Paris }
    assert: [{ type: icontains, value: "{{city}}" }]
  - description: capital
    vars: { question: Capital of Spain?, city: Madrid }
    assert: [{ type: icontains, value: "{{city}}" }]
  - vars: { question: Capital of Italy?, city: Rome, lang: it }
    assert: [{ type: icontains, value: "{{city}}" }]`, 'defaultTest:\n  vars: { lang: en }\n  assert: [{ type: llm-rubric, value: Names the capital }]'), { judge: 'local:heuristic' })
    expect(imported.name).toBe('Support')
    expect(imported.cases).toEqual([
      { id: 'capital', input: { lang: 'en', question: 'Capital of France?', city: 'Paris', assert: { icontains_1: 'Paris' } } },
      { id: 'capital (2)', input: { lang: 'en', question: 'Capital of Spain?', city: 'Madrid', assert: { icontains_1: 'Madrid' } } },
      { id: 'test-3', input: { lang: 'it', question: 'Capital of Italy?', city: 'Rome', assert: { icontains_1: 'Rome' } } },
    ])
    expect(imported.evaluators).toEqual([
      { id: 'checks', cases: 3, config: { evaluation_type: 'scorers', scorers: [{ type: 'contains', weight: 1, options: { trim: false, ignore_case: true, value: '{{input.assert.icontains_1}}' } }] } },
      { id: 'rubric', cases: 3, config: { evaluation_type: 'criteria', model: 'local:heuristic', criteria: [{ name: 'llm_rubric_1', description: 'Names the capital' }], pass_threshold: 0.5 } },
    ])
    // Two evaluators: no one config judges a case alone.
    expect(imported.evaluator).toBeNull()
  })

  it('reads tests from a CSV file the config names, through the reader it is given', () => {
    const text = 'prompts: ["Q: {{question}}"]\nproviders: [openai:gpt-4o-mini]\ntests: file://cases.csv'
    const files: Record<string, string> = { 'cases.csv': 'question,__expected1,__expected2,__description\nHi?,icontains: hello,starts-with: Hi,greeting\nBye?,Goodbye,,farewell\n' }
    const imported = importPromptfoo(text, { readFile: path => files[path]! })
    expect(imported.cases.map(c => c.id)).toEqual(['greeting', 'farewell'])
    expect(imported.cases[1]!.input).toMatchObject({ question: 'Bye?', assert_group: 2 })
    expect(() => importPromptfoo(text)).toThrow('tests[0]: "file://cases.csv" is a file reference, which only the command line reads (judgeflow import promptfoo); put its content in the config.')
  })

  it('refuses what it cannot read, naming the field', () => {
    expect(() => importPromptfoo('tests: [')).toThrow(/^the promptfoo config, line 1: not valid YAML or JSON: /)
    expect(() => importPromptfoo('prompts: [x]')).toThrow('the promptfoo config has no tests: give tests with vars and assert.')
    expect(() => importPromptfoo('tests:\n  - vars: 3')).toThrow(/^the promptfoo config, tests\[0\]/)
    expect(() => importPromptfoo('tests:\n  - vars: { a: 1 }\n    assert: [{ value: x }]')).toThrow(/tests\[0\]\.assert\[0\]\.type: /)
    expect(() => importPromptfoo('tests:\n  - vars: { assert: 1 }')).toThrow('test "test-1", vars.assert: "assert" is the input field that holds the assertions\' values; rename the var.')
    expect(() => importPromptfoo('tests:\n  - vars: { lang: [en, fr] }')).toThrow('test "test-1", vars.lang: a list runs the test once per item in promptfoo; write one test per value.')
    expect(() => importPromptfoo('scenarios: []\ntests: [{ vars: { a: 1 } }]')).toThrow(/scenarios are not imported/)
    expect(() => importPromptfoo(config('  - vars: { q: 1 }').replace('openai:chat:gpt-4o-mini', 'ollama:llama3'))).toThrow('providers[0]: "ollama:llama3" has no judgeflow equivalent')
    expect(() => importPromptfoo(config('  - vars: { q: 1 }').replace('{{ question }}', '{{ question | upper }}'))).toThrow('prompts[0]: "{{ question | upper }}" is not imported')
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
  it('one LLM step per prompt × provider with {{var}} as input references, each followed by the evaluators', () => {
    const imported = importPromptfoo(`prompts: ["Answer: {{ question }}", { raw: "Briefly: {{question}}", label: brief }]
providers: [openai:gpt-4o-mini, { id: anthropic:messages:claude-3-5-haiku, label: Claude }]
tests:
  - vars: { question: q }
    assert: [{ type: contains, value: x }]`)
    const workflow = validatedWorkflow(imported.workflow, defaultRegistry)
    const llms = workflow.nodes.filter(n => n.type === 'llm')
    expect(llms.map(n => [n.id, n.config.model, n.config.prompt])).toEqual([
      ['prompt_1_openai_gpt_4o_mini', 'openai:gpt-4o-mini', 'Answer: {{input.question}}'],
      ['prompt_1_claude', 'anthropic:claude-3-5-haiku', 'Answer: {{input.question}}'],
      ['prompt_2_openai_gpt_4o_mini', 'openai:gpt-4o-mini', 'Briefly: {{input.question}}'],
      ['prompt_2_claude', 'anthropic:claude-3-5-haiku', 'Briefly: {{input.question}}'],
    ])
    expect(workflow.nodes.find(n => n.id === 'prompt_2_claude_checks')!.config).toMatchObject({ evaluation_type: 'scorers', actual: '{{steps.prompt_2_claude.text}}' })
    // Four evaluators: the run passes only when none that ran failed.
    expect(workflow.nodes.find(n => n.id === 'verdict')!.config).toMatchObject({ op: 'contains', right: '=false' })
  })

  it('routes each case to its group\'s checks, and its verdict is that every assertion passed', async () => {
    const imported = importPromptfoo(config(`  - description: refund
    vars: { question: Refund? }
    assert: [{ type: icontains, value: 30 days }]
  - description: json
    vars: { question: Status? }
    assert: [{ type: is-json }, { type: contains, value: shipped }]
  - description: json late
    vars: { question: Status? }
    assert: [{ type: is-json }, { type: contains, value: delivered }]
  - description: free
    vars: { question: Anything? }`), { judge: 'local:heuristic' })
    expect(imported.cases.map(c => c.input.assert_group)).toEqual([1, 2, 2, 3])
    expect(imported.workflow!.nodes).toContainEqual({ id: 'generate_assert_group_2', type: 'condition', config: { left: '{{input.assert_group}}', op: 'eq', right: 2 } })
    expect(await verdicts(imported, { 'refund': 'Within 30 Days.', 'json': '{"status":"shipped"}', 'json late': '{"status":"shipped"}', 'free': 'anything' }))
      .toEqual({ 'refund': 'pass', 'json': 'pass', 'json late': 'fail', 'free': 'pass' })
    expect(await verdicts(imported, { 'refund': 'In a month.', 'json': 'shipped', 'json late': '{"status":"delivered"}', 'free': '' }))
      .toEqual({ 'refund': 'fail', 'json': 'fail', 'json late': 'pass', 'free': 'pass' })
  })

  it('notes the settings it leaves out', () => {
    const imported = importPromptfoo(`prompts: [hi]
providers: [{ id: openai:gpt-4o-mini, config: { temperature: 0, seed: 7 } }]
tests:
  - vars: { q: 1 }
    threshold: 0.6`)
    expect(imported.notes).toEqual([
      'test "test-1": threshold 0.6 (a score for the whole test) is not imported; each check has its own threshold',
      'no assertion was mapped, so the cases have nothing to judge them',
      'providers[0]: config seed not imported',
    ])
    expect(imported.workflow!.nodes).toContainEqual({ id: 'generate', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'hi', temperature: 0 } })
    expect(importPromptfoo('prompts: [hi]\ntests: [{ vars: { q: 1 } }]').notes).toContain('no workflow: the config needs both prompts and providers for one')
  })

  it('builds no workflow without prompts and providers; one evaluator then judges a case alone', () => {
    const imported = importPromptfoo('tests:\n  - vars: { actual: "4" }\n    assert: [{ type: equals, value: "4" }]')
    expect(imported.workflow).toBeUndefined()
    expect(imported.evaluator).toEqual({ evaluation_type: 'scorers', scorers: [{ type: 'exact-match', weight: 1, options: { trim: false, value: '4' } }] })
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

  it('refuses what would change what is judged: an output transform, a response format, a file loaded into a var, code hooks', () => {
    const base = config('  - vars: { question: q }\n    assert: [{ type: contains, value: x }]')
    expect(() => importPromptfoo(config('  - vars: { question: q }\n    options: { transform: output.trim() }\n    assert: [{ type: contains, value: x }]')))
      .toThrow('tests[0].options.transform: not imported (it transforms the output before the assertions see it')
    expect(() => importPromptfoo(`${base}\ndefaultTest:\n  options: { transform: output.trim() }`)).toThrow('defaultTest.options.transform: not imported')
    expect(() => importPromptfoo(base.replace('config: { temperature: 0.2, max_tokens: 300 }', 'config: { response_format: { type: json_object } }')))
      .toThrow('providers[0].config.response_format: not imported')
    expect(() => importPromptfoo(config('  - vars: { question: "file://question.txt" }\n    assert: [{ type: contains, value: x }]')))
      .toThrow('tests[0].vars.question: "file://question.txt" is a file promptfoo loads into the var, which the import does not read')
    expect(() => importPromptfoo(base.replace('  - "Answer: {{ question }}"', '  - { raw: "Answer: {{ question }}", function: true }'))).toThrow('prompts[0].function: not imported')
    expect(() => importPromptfoo(`${base}\nextensions: [file://hooks.js:extensionHook]`)).toThrow('the promptfoo config, extensions: it is not imported, and it may change what promptfoo runs or judges (it runs code)')
  })

  it('notes what changes no verdict, saying what to use instead', () => {
    const imported = importPromptfoo(`${config('  - vars: { question: q }\n    assert: [{ type: contains, value: x }]')}\nenv: { FOO: bar }\noutputPath: out.json\nevaluateOptions: { repeat: 3 }`)
    expect(imported.notes).toEqual(expect.arrayContaining([
      'env: the import reads no variables: set them in judgeflow\'s environment',
      'outputPath: write the report with judgeflow test --report',
      'evaluateOptions: judgeflow test sets these with --concurrency and --repeat',
    ]))
  })
})
