/**
 * What an evaluation type needs to be given (expected, a trace, two candidates) is checked before
 * a run by the workflow's validation, and by the run itself, with one function: what the
 * validation accepts, the run does not refuse for a missing input, and what it refuses, it refuses
 * with the same words.
 */
import { describe, expect, it } from 'vitest'
import { createProviders, defaultRegistry, evaluate, missingKeyWarnings, runWorkflow, validateWorkflow } from '../../../engine'
import { testDeps } from '../../support/workflows'

const providers = createProviders()
const llm = (id: string, pinned: string) => ({ id, type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'p' }, pinned: [pinned] })
const evaluator = (config: Record<string, unknown>) => ({ id: 'judge', type: 'evaluator', config })

function workflow(judge: Record<string, unknown>, upstream: object[] = [llm('draft', 'an answer')]) {
  const ids = upstream.map(node => (node as { id: string }).id)
  return {
    name: 'inputs',
    nodes: [{ id: 'in', type: 'input' }, ...upstream, evaluator(judge)],
    edges: [...ids.map(id => ({ from: 'in', to: id })), ...ids.map(id => ({ from: id, to: 'judge' }))],
  }
}
const problemsOf = (definition: unknown) => validateWorkflow(definition, defaultRegistry).problems
  .map(p => ({ node: p.node, path: p.path, message: p.message }))

describe('an evaluation type\'s inputs, checked before the run', () => {
  it('refuses scorers that compare with expected when expected is set nowhere, naming the node, the field and the scorers', () => {
    expect(problemsOf(workflow({ evaluation_type: 'scorers', preset: 'standard', actual: '{{steps.draft}}' }))).toEqual([{
      node: 'judge',
      path: 'nodes.judge.config.expected',
      message: expect.stringMatching(/^node "judge": nodes\.judge\.config\.expected: is missing, and the scorers "operation-accuracy" \(preset standard\), "target-block-precision" \(preset standard\), "content-quality" \(preset standard\) compare the output with it: set expected \(e\.g\. \{\{input\.expected\}\}\)$/),
    }])
    expect(problemsOf(workflow({ evaluation_type: 'scorers', scorers: [{ type: 'exact-match' }] }))).toMatchObject([{
      path: 'nodes.judge.config.expected', message: expect.stringContaining('the scorer "exact-match" (scorers[0]) compares the output with it: set expected (e.g. {{input.expected}}) or the scorer\'s options.value'),
    }])
  })

  it('accepts scorers given expected (a value or a reference), an option in its place, or none that compares', () => {
    expect(problemsOf(workflow({ evaluation_type: 'scorers', preset: 'standard', actual: '{{steps.draft}}', expected: '{{input.expected}}' }))).toEqual([])
    expect(problemsOf(workflow({ evaluation_type: 'scorers', scorers: [{ type: 'exact-match' }], expected: 'an answer' }))).toEqual([])
    expect(problemsOf(workflow({ evaluation_type: 'scorers', scorers: [{ type: 'contains', options: { values: ['answer'] } }, { type: 'json-valid' }] }))).toEqual([])
  })

  it('refuses trace scoring with no trace, and a comparison with fewer than two candidates', () => {
    expect(problemsOf(workflow({ evaluation_type: 'trace' }))).toEqual([{
      node: 'judge', path: 'nodes.judge.config.trace', message: expect.stringContaining('trace: is missing: set trace to the reasoning trace to score'),
    }])
    expect(problemsOf(workflow({ evaluation_type: 'trace', trace: '{{input.trace}}' }))).toEqual([])
    // One LLM step wired in, and a list of one.
    expect(problemsOf(workflow({ evaluation_type: 'comparison', model: 'local:heuristic' }))).toEqual([{
      node: 'judge', path: 'nodes.judge.config.compare_inputs', message: expect.stringContaining('compare_inputs: needs at least 2 candidates, not 1: list them in compare_inputs'),
    }])
    expect(problemsOf(workflow({ evaluation_type: 'comparison', model: 'local:heuristic', compare_inputs: ['{{steps.draft.text}}'] }))[0]!.message).toContain('not 1')
    expect(problemsOf(workflow({ evaluation_type: 'comparison', model: 'local:heuristic' }, []))[0]!.message).toContain('not 0')
    // A list whose length only the run knows is left to the run.
    expect(problemsOf(workflow({ evaluation_type: 'comparison', model: 'local:heuristic', candidates: '{{input.candidates}}' }))).toEqual([])
  })

  it('refuses the run of such a workflow before any step runs, with the same problems', async () => {
    const { options, events } = testDeps()
    const definition = workflow({ evaluation_type: 'trace' })
    await expect(runWorkflow(definition, options)).rejects.toMatchObject({ code: 'INVALID_WORKFLOW', details: validateWorkflow(definition, defaultRegistry).problems })
    expect(events).toEqual([])
  })
})

describe('the same check at the run, on the values it gets', () => {
  it('refuses an evaluation with what the validation says of the step, word for word', async () => {
    const [problem] = validateWorkflow(workflow({ evaluation_type: 'scorers', preset: 'standard' }), defaultRegistry).problems
    const said = problem!.message.replace(/^node "judge": nodes\.judge\.config\./, '')
    await expect(evaluate({ evaluation_type: 'scorers', preset: 'standard' }, { actual: { operations: [] } }, { providers }))
      .rejects.toMatchObject({ code: 'INVALID_INPUT', message: `Invalid evaluation input: ${said}.` })
    await expect(evaluate({ evaluation_type: 'comparison', model: 'local:heuristic', compare_inputs: ['only one'] }, {}, { providers }))
      .rejects.toThrow('Invalid evaluation input: compare_inputs: needs at least 2 candidates, not 1')
  })

  it('refuses a step whose reference gave nothing, naming the field', async () => {
    const { options } = testDeps()
    const result = await runWorkflow(workflow({ evaluation_type: 'scorers', scorers: [{ type: 'exact-match' }], actual: '{{steps.draft.text}}', expected: '{{input.expected}}' }), { ...options, input: {} })
    expect(result.status).toBe('failed')
    expect(result.steps.judge!.error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('expected: is missing, and the scorer "exact-match" (scorers[0]) compares the output with it') })
  })
})

describe('a comparison wired to two LLM steps (the A/B test pattern)', () => {
  it('is valid, and ranks the texts of the steps wired into it, each named by its step\'s id', async () => {
    const definition = workflow({ evaluation_type: 'comparison', model: 'local:heuristic', pass_threshold: 0 }, [llm('a', 'Check the docs.'), llm('b', '1. Open Settings. 2. Choose "Forgot password". 3. Follow the emailed link.')])
    expect(problemsOf(definition)).toEqual([])
    const { options } = testDeps()
    const result = await runWorkflow(definition, options)
    expect(result.status).toBe('succeeded')
    const output = result.steps.judge!.output as { ranking: Array<{ id: string }>, winner: string | null }
    expect(output.ranking.map(r => r.id).sort()).toEqual(['a', 'b'])
    expect(['a', 'b', null]).toContain(output.winner)
  })
})

describe('a metric suite whose judge\'s key the server lacks', () => {
  const suite = workflow({ evaluation_type: 'metrics', content: '{{steps.draft.text}}' })

  it('is warned of beforehand, naming the key, with the words the run\'s start refuses it with', async () => {
    const { options } = testDeps()
    const workflow = validateWorkflow(suite, defaultRegistry).workflow!
    const warnings = missingKeyWarnings(workflow, options)
    expect(warnings).toEqual([{ node: 'judge', message: expect.stringMatching(/^ANTHROPIC_API_KEY is not set: node "judge" uses anthropic:/) }])
    await expect(runWorkflow(suite, options)).rejects.toMatchObject({ code: 'MISSING_API_KEY', message: warnings[0]!.message })
  })

  it('is not warned of with the key, or with its output pinned', () => {
    const workflow = validateWorkflow(suite, defaultRegistry).workflow!
    expect(missingKeyWarnings(workflow, testDeps([], { ANTHROPIC_API_KEY: 'k' }).options)).toEqual([])
    const pinned = { ...workflow, nodes: workflow.nodes.map(n => (n.id === 'judge' ? { ...n, pinned: [{ passed: true }] } : n)) }
    expect(missingKeyWarnings(pinned, testDeps().options)).toEqual([])
  })
})
