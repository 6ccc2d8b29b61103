import { describe, expect, it } from 'vitest'
import { importPromptfoo } from '../../../engine/datasets'
import { convertedLines, type ImportParts } from '../../../app/utils/promptfoo-import'

/** What the import route answers for a config, the engine's import with the dataset it created. */
function answerFor(config: string, options: Parameters<typeof importPromptfoo>[1] = {}): ImportParts {
  const imported = importPromptfoo(config, options)
  const { evaluator, evaluators, workflow, notes } = imported
  const dataset = { id: 'd1', name: imported.name, case_count: imported.cases.length, current_version: 1, version: 1, created_at: '', updated_at: '' }
  return { dataset, evaluator, evaluators, notes, ...(workflow ? { workflow } : {}) } as ImportParts
}

const tests = `tests:
  - description: ada
    vars: { name: Ada }
    assert: [{ type: icontains, value: Ada }]
  - description: bob
    vars: { name: Bob }
    assert: [{ type: llm-rubric, value: Is friendly }]
`

describe('what an imported promptfoo config became, as the import dialog lists it', () => {
  it('one prompt and one provider: the dataset\'s cases, the workflow\'s steps, the assertions\' evaluator and its grader', () => {
    const answer = answerFor(`description: Greetings\nprompts: ['Greet {{name}}']\nproviders: [openai:chat:gpt-4o-mini]\ndefaultTest: { options: { provider: openai:gpt-4o } }\n${tests}`)
    expect(convertedLines(answer)).toEqual([
      'Tests → dataset "Greetings": 2 cases',
      'Prompts × providers → workflow "Greetings": input, generate (llm), judge (evaluator)',
      'Assertions → each case keeps its own, graded as promptfoo grades them: assertions judge 2 cases; model-graded ones by openai:gpt-4o',
    ])
  })

  it('a grid says each case is a test under one prompt · provider; without prompts there is no workflow line', () => {
    const grid = answerFor(`description: Grid\nprompts: ['Say {{name}}', 'Shout {{name}}']\nproviders: [openai:chat:gpt-4o-mini]\n${tests}`, { judge: 'openai:gpt-4o' })
    expect(convertedLines(grid)[0]).toBe('Tests → dataset "Grid": 4 cases, one per test × prompt · provider')
    const bare = answerFor(`description: Bare\n${tests.replace(/- \{ type: llm-rubric.*\}/, '- { type: contains, value: o }').replace('[{ type: llm-rubric, value: Is friendly }]', '[{ type: contains, value: o }]')}`)
    expect(convertedLines(bare)).toEqual(['Tests → dataset "Bare": 2 cases', 'Assertions → each case keeps its own, graded as promptfoo grades them: assertions judge 2 cases'])
    expect(bare.notes).toEqual([])
  })
})
