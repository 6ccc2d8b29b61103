import { describe, expect, it } from 'vitest'
import { defaultRegistry, validateWorkflow } from '../../../engine'
import { workflowCorpus } from '../../support/workflow-corpus'
import { qualityGate } from '../../support/workflows'

const evaluatorGate = (left: unknown, right: unknown = true, op = 'eq') => ({
  name: 'gate',
  nodes: [
    { id: 'in', type: 'input', config: { fields: { question: { type: 'string', required: true } } } },
    { id: 'draft', type: 'llm', config: { model: 'openai:gpt-4o-mini', prompt: 'Answer: {{input.question}}' } },
    { id: 'judge', type: 'evaluator', config: { evaluation_type: 'criteria', model: 'local:heuristic', criteria: [{ name: 'relevance' }, { name: 'clarity' }] } },
    { id: 'check', type: 'condition', config: { left, op, right } },
    { id: 'ok', type: 'output', config: { verdict: 'pass', value: '{{steps.draft.text}}' } },
  ],
  edges: [{ from: 'in', to: 'draft' }, { from: 'draft', to: 'judge' }, { from: 'judge', to: 'check' }, { from: 'check', to: 'ok', when: 'true' }],
})

const problemsOf = (workflow: unknown) => validateWorkflow(workflow, defaultRegistry).problems

describe('references checked against what steps output', () => {
  it('a misspelt output field is a problem naming the reference, the step, its fields and the nearest one', () => {
    const result = validateWorkflow(evaluatorGate('{{steps.judge.pased}}'), defaultRegistry)
    expect(result.ok).toBe(false)
    expect(result.problems).toHaveLength(1)
    const [problem] = result.problems
    expect(problem).toMatchObject({ code: 'invalid_reference', node: 'check', path: 'nodes.check.config.left' })
    expect(problem!.message).toContain('{{steps.judge.pased}}: step "judge" (Evaluator, criteria) has no field "pased"')
    expect(problem!.message).toContain('overall_score')
    expect(problem!.message).toContain('did you mean `passed`?')
  })

  it('checks fields below the first: a criterion the evaluator does not score, a field of the LLM\'s usage', () => {
    const criterion = problemsOf(evaluatorGate('{{steps.judge.criteria_scores.relevence}}', 0.5, 'gte'))
    expect(criterion).toMatchObject([{ node: 'check', path: 'nodes.check.config.left' }])
    expect(criterion[0]!.message).toContain('has no field "criteria_scores.relevence": did you mean `criteria_scores.relevance`? (its fields there: relevance, clarity)')
    const usage = problemsOf(evaluatorGate('{{steps.draft.usage.total_tokens}}', 10, 'lt'))
    expect(usage[0]!.message).toContain('has no field "usage.total_tokens"')
    expect(problemsOf(evaluatorGate('{{steps.draft.text.first}}'))[0]!.message).toContain('field "text" of step "draft" is string, which has no field "first"')
    expect(problemsOf(evaluatorGate('{{steps.judge.criteria_scores.clarity}}', 0.5, 'gte'))).toEqual([])
  })

  it('a rubric has a grade, a comparison a winner; a scoring evaluator has neither', () => {
    const gate = evaluatorGate('{{steps.judge.grade}}', 'A')
    expect(problemsOf(gate)).toEqual([])
    gate.nodes[2]!.config = { evaluation_type: 'scoring', model: 'local:heuristic' } as never
    gate.nodes[3]!.config = { left: '{{steps.judge.winner}}', op: 'eq', right: 'a' }
    expect(problemsOf(gate)[0]!.message).toContain('has no field "winner"')
  })

  it('a reference to a step that does not run before the reader is a problem; one inside a retry loop is not', () => {
    const wf = evaluatorGate('{{steps.judge.passed}}')
    wf.nodes.push({ id: 'side', type: 'output', config: { verdict: 'fail', value: '{{steps.ok.value}}' } } as never)
    wf.edges.push({ from: 'in', to: 'side' } as never)
    expect(problemsOf(wf)).toMatchObject([{ code: 'invalid_reference', node: 'side', path: 'nodes.side.config.value' }])
    expect(problemsOf(wf)[0]!.message).toContain('refers to step "ok", which does not run before this one')
    // The quality gate's draft reads the judge's feedback of the attempt before.
    expect(problemsOf(qualityGate(['a'], [true]))).toEqual([])
  })

  it('an input field the input step does not declare is a problem', () => {
    const wf = evaluatorGate('{{steps.judge.passed}}')
    wf.nodes[1]!.config = { model: 'openai:gpt-4o-mini', prompt: 'Answer: {{input.questoin}}' }
    expect(problemsOf(wf)).toMatchObject([{ code: 'invalid_reference', node: 'draft', path: 'nodes.draft.config.prompt' }])
    expect(problemsOf(wf)[0]!.message).toContain('reads input field "questoin", which the input step does not declare: did you mean `question`? (its fields: question)')
    // An input step that declares no fields takes any.
    wf.nodes[0]!.config = {} as never
    expect(problemsOf(wf)).toEqual([])
  })

  it('a pinned step has the fields of its pinned outputs', () => {
    const gate = qualityGate(['a'], [true])
    expect(problemsOf(gate)).toEqual([])
    ;(gate.nodes[3] as { config: Record<string, unknown> }).config.left = '{{steps.judge.usage}}'
    expect(problemsOf(gate)[0]!.message).toContain('step "judge" (llm, pinned) has no field "usage" (its fields: passed, feedback)')
  })

  it('a condition comparing a number with a string is a warning, and the workflow stays valid', () => {
    const result = validateWorkflow(evaluatorGate('{{steps.judge.overall_score}}', 'high'), defaultRegistry)
    expect(result.ok).toBe(true)
    expect(result.problems).toMatchObject([{ code: 'mixed_comparison', severity: 'warning', node: 'check', path: 'nodes.check.config.right' }])
    expect(result.problems[0]!.message).toContain('compares a number ("{{steps.judge.overall_score}}") with a string ("high")')
    expect(problemsOf(evaluatorGate('{{steps.judge.overall_score}}', '0.6', 'gte'))).toEqual([])
    expect(problemsOf(evaluatorGate('{{steps.judge.overall_score}}', '{{steps.draft.text}}', 'gte'))).toMatchObject([{ severity: 'warning' }])
  })

  it('every template and example workflow has no problem', () => {
    for (const { name, workflow } of workflowCorpus()) expect({ name, problems: problemsOf(workflow) }).toEqual({ name, problems: [] })
  })
})
