/**
 * What cannot run is refused before any case does: an unknown provider or offline judge is a
 * problem of `validate` and `test` (exit 2, naming the step, field and the likely name), a
 * missing key a warning of `validate` and one sentence from `test`, and a dataset missing a field
 * the workflow's input step requires one sentence naming it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../../support/cli'

const dataset = join(import.meta.dirname, '../../../examples/datasets/support-questions.csv')

/** An input step requiring `question`, an LLM step on `model`, and an evaluator judging it with `judge`. */
function workflowFile(model: string, judge: string, field = 'question'): string {
  const dir = mkdtempSync(join(tmpdir(), 'judgeflow-models-'))
  const path = join(dir, 'workflow.json')
  writeFileSync(path, JSON.stringify({
    name: 'models',
    nodes: [
      { id: 'in', type: 'input', config: { fields: { [field]: { type: 'string', required: true } } } },
      { id: 'draft', type: 'llm', config: { model, prompt: `Answer: {{input.${field}}}` } },
      { id: 'judge', type: 'evaluator', config: { evaluation_type: 'criteria', model: judge, criteria: [{ name: 'relevance', description: 'On topic' }] } },
    ],
    edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }],
  }))
  return path
}

const keys = { OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'sk-ant-test' }

describe('models that cannot run', () => {
  it('validate refuses an unknown provider on its step and field, with the nearest provider', async () => {
    const { code, out, err } = await cli(['validate', workflowFile('opanai:gpt-4o-mini', 'local:heuristic')], keys)
    expect(code).toBe(2)
    const { problems } = JSON.parse(out) as { problems: Array<{ node: string, path: string, severity?: string }> }
    expect(problems).toEqual([expect.objectContaining({ node: 'draft', path: 'nodes.draft.config.model' })])
    expect(err).toContain('unknown provider "opanai"')
    expect(err).toContain('did you mean "openai:gpt-4o-mini"?')
  })

  it('validate refuses a provider judgeflow does not call, listing the known ones', async () => {
    const { code, err } = await cli(['validate', workflowFile('gemini:gemini-1.5-pro', 'local:heuristic')], keys)
    expect(code).toBe(2)
    expect(err).toContain('unknown provider "gemini"')
    expect(err).toContain('openai, anthropic, local')
  })

  it('validate refuses a misspelt offline judge, naming local:heuristic', async () => {
    const { code, out, err } = await cli(['validate', workflowFile('openai:gpt-4o-mini', 'local:heuristics')], keys)
    expect(code).toBe(2)
    const { problems } = JSON.parse(out) as { problems: Array<{ node: string, path: string }> }
    expect(problems).toEqual([expect.objectContaining({ node: 'judge', path: 'nodes.judge.config.model' })])
    expect(err).toContain('did you mean "local:heuristic"?')
  })

  it('validate warns of a model name close to a known one, and stays valid', async () => {
    const { code, out, err } = await cli(['validate', workflowFile('openai:gpt-4o-mni', 'local:heuristic')], keys)
    expect(code).toBe(0)
    const { valid, problems } = JSON.parse(out) as { valid: boolean, problems: Array<{ node: string, path: string, severity?: string }> }
    expect(valid).toBe(true)
    expect(problems).toEqual([expect.objectContaining({ node: 'draft', path: 'nodes.draft.config.model', severity: 'warning' })])
    expect(err).toContain('did you mean "openai:gpt-4o-mini"?')
  })

  it('validate says nothing of a model judgeflow has no price for and no near name of', async () => {
    const { code, out } = await cli(['validate', workflowFile('openai:gpt-7-turbo-max', 'local:heuristic')], keys)
    expect(code).toBe(0)
    expect((JSON.parse(out) as { problems: unknown[] }).problems).toEqual([])
  })

  it('validate warns of a missing key, naming the variable, and stays valid', async () => {
    const { code, out, err } = await cli(['validate', workflowFile('openai:gpt-4o-mini', 'local:heuristic')], { ANTHROPIC_API_KEY: 'x' })
    expect(code).toBe(0)
    const { valid, problems, warnings } = JSON.parse(out) as { valid: boolean, problems: unknown[], warnings: Array<{ node: string, message: string }> }
    expect([valid, problems]).toEqual([true, []])
    expect(warnings).toEqual([{ node: 'draft', message: expect.stringMatching(/^OPENAI_API_KEY is not set: node "draft" uses openai:gpt-4o-mini\./) }])
    expect(err).toContain('OPENAI_API_KEY is not set')
  })

  it('test refuses an unknown provider before any case runs, and exits 2', async () => {
    const { code, out, err } = await cli(['test', workflowFile('gemini:gemini-1.5-pro', 'local:heuristic'), '--dataset', dataset], keys)
    expect(code).toBe(2)
    expect(out).toBe('')
    expect(err).toMatch(/^The workflow is invalid: node "draft": nodes\.draft\.config\.model: unknown provider "gemini"/)
  })

  it('test refuses a missing key in one sentence naming it, before any case runs', async () => {
    const { code, out, err } = await cli(['test', workflowFile('openai:gpt-4o-mini', 'local:heuristic'), '--dataset', dataset], {})
    expect(code).toBe(2)
    expect(out).toBe('')
    expect(err.split('\n')).toEqual([expect.stringMatching(/^OPENAI_API_KEY is not set: node "draft" uses openai:gpt-4o-mini\./)])
  })

  it('test refuses a dataset missing a field the input step requires, naming it and the cases, before any case runs', async () => {
    const { code, out, err } = await cli(['test', workflowFile('openai:gpt-4o-mini', 'local:heuristic', 'query'), '--dataset', dataset], keys)
    expect(code).toBe(2)
    expect(out).toBe('')
    expect(err.split('\n')).toEqual(['The dataset lacks "query", which the workflow\'s input step "in" requires: 12 of 12 cases lack it (reset-1, reset-2, reset-3, …); add it to the cases (a column of that name), or give the field a default.'])
  })
})
