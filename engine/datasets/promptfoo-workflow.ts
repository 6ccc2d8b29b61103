import { JudgeflowError } from '../errors'
import type { ImportedEvaluator } from './promptfoo'

/**
 * The workflow of an imported promptfoo config: the input (the vars as fields), an LLM step per
 * prompt × provider, and after each the evaluators of the case's groups (chosen by a condition on
 * `assert_group` / `rubric_group` when the tests form several). With more than one evaluator, a
 * last condition fails the run when any evaluator that ran did not pass.
 */

export interface PromptfooProvider {
  model: string
  label?: string
  temperature?: number
  max_tokens?: number
  /** The prompts it runs, by index (`providers[].prompts`); all when absent. */
  prompts?: number[]
}

export interface GroupEvaluators {
  /** The case input field that routes cases to this group (null: every case takes it). */
  field: string | null
  group: number
  evaluators: ImportedEvaluator[]
}

interface WorkflowParts {
  name: string
  prompts: Array<{ label?: string, text: string }>
  providers: PromptfooProvider[]
  /** The case input's fields. */
  vars: string[]
  groups: GroupEvaluators[]
}

/** promptfoo's `openai:…`, `openai:chat:…`, `anthropic:…` and `anthropic:messages:…` as a judgeflow model. */
export function providerModel(id: string, where: string): string {
  const match = /^(openai|anthropic)(?::(?:chat|messages))?:([^:]+)$/.exec(id.trim())
  if (!match) {
    throw new JudgeflowError('INVALID_INPUT', `${where}: "${id}" has no judgeflow equivalent; judgeflow calls openai:<model> (any OpenAI-compatible server through OPENAI_BASE_URL) and anthropic:<model>.`)
  }
  return `${match[1]}:${match[2]}`
}

/** A promptfoo prompt with `{{ var }}` written as judgeflow's `{{input.var}}`; Nunjucks beyond that is refused. */
export function promptTemplate(text: string, where: string): string {
  if (/\{%/.test(text)) throw new JudgeflowError('INVALID_INPUT', `${where}: Nunjucks tags ({% … %}) are not imported; judgeflow prompts take {{input.<var>}} references only.`)
  return text.replace(/\{\{([^{}]*)\}\}/g, (whole, inner: string) => {
    const name = inner.trim()
    if (!/^[A-Za-z_][\w]*(?:\.[\w]+)*$/.test(name)) {
      throw new JudgeflowError('INVALID_INPUT', `${where}: "${whole}" is not imported (filters and expressions are Nunjucks); judgeflow prompts take {{input.<var>}} references only.`)
    }
    return `{{input.${name}}}`
  })
}

export function buildPromptfooWorkflow(parts: WorkflowParts): Record<string, unknown> {
  const nodes: Array<Record<string, unknown>> = []
  const edges: Array<Record<string, unknown>> = []
  const judges: string[] = []
  let unjudged = false
  const fields = Object.fromEntries(parts.vars.filter(v => /^[a-zA-Z_][a-zA-Z0-9_]*$/.test(v)).map(v => [v, { type: v === 'assert' ? 'object' : v.endsWith('_group') ? 'number' : 'any' }]))
  nodes.push({ id: 'input', type: 'input', config: { fields } })
  const several = parts.prompts.length * parts.providers.length > 1
  parts.prompts.forEach((prompt, p) => {
    parts.providers.forEach((provider, v) => {
      if (provider.prompts && !provider.prompts.includes(p)) return
      const llm = several ? `prompt_${p + 1}${parts.providers.length > 1 ? `_${slug(provider.label ?? provider.model) || v + 1}` : ''}`.slice(0, 48) : 'generate'
      const { model, temperature, max_tokens } = provider
      nodes.push({ id: llm, type: 'llm', config: { model, prompt: prompt.text, ...(temperature === undefined ? {} : { temperature }), ...(max_tokens === undefined ? {} : { max_tokens }) } })
      edges.push({ from: 'input', to: llm })
      for (const { field, group, evaluators } of parts.groups) {
        let from: { from: string, when?: string } = { from: llm }
        if (field) {
          const route = `${llm}_${field}_${group}`
          nodes.push({ id: route, type: 'condition', config: { left: `{{input.${field}}}`, op: 'eq', right: group } })
          edges.push({ from: llm, to: route })
          from = { from: route, when: 'true' }
        }
        if (!evaluators.length) {
          unjudged = true
          edges.push({ ...from, to: 'verdict' })
        }
        for (const evaluator of evaluators) {
          const id = `${llm}_${evaluator.id}`
          const judged = evaluator.config.evaluation_type === 'scorers' ? { actual: `{{steps.${llm}.text}}` } : { content: `{{steps.${llm}.text}}`, context: prompt.text }
          nodes.push({ id, type: 'evaluator', config: { ...evaluator.config, ...judged } })
          edges.push({ ...from, to: id })
          judges.push(id)
        }
      }
    })
  })
  if (judges.length > 1 || unjudged) {
    // Text such as "a=true b=": a step skipped (another group's) renders empty, so only a judge that ran and failed writes "=false".
    nodes.push({ id: 'verdict', type: 'condition', config: { left: judges.map(id => `${id}={{steps.${id}.passed}}`).join(' '), op: 'contains', right: '=false' } })
    for (const id of judges) edges.push({ from: id, to: 'verdict' })
    nodes.push({ id: 'failed', type: 'output', config: { verdict: 'fail' } }, { id: 'passed', type: 'output', config: { verdict: 'pass' } })
    edges.push({ from: 'verdict', to: 'failed', when: 'true' }, { from: 'verdict', to: 'passed', when: 'false' })
  }
  return { name: parts.name, nodes, edges }
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '')
}
