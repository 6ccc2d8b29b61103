import { JudgeflowError } from '../errors'
import { invalid } from './promptfoo-invalid'
import { type PromptfooHttp, withPrompt } from './promptfoo-http'
import type { PromptfooScript } from './promptfoo-scripts'

/**
 * The workflow of an imported promptfoo config: the input (the vars as fields), an LLM step per
 * prompt × provider, and after each the assertions evaluator that grades the case's own assertions.
 */

export interface PromptfooProvider {
  model: string
  label?: string
  temperature?: number
  max_tokens?: number
  response_format?: Record<string, unknown>
  /** The prompts it runs, by index (`providers[].prompts`); all when absent. */
  prompts?: number[]
  /** JavaScript that turns its output before the test's transform and the assertions see it. */
  transform?: string
  /** The endpoint its config names (apiBaseUrl, apiHost), which the run calls it at. */
  endpoint?: string
  /** An http provider (promptfoo-http.ts): the product's endpoint, called by an http step; `model` is then its id. */
  http?: PromptfooHttp
  /** A provider of the user's code (promptfoo-scripts.ts), called by a code step; `model` is then its id. */
  code?: PromptfooScript
}

interface WorkflowParts {
  name: string
  prompts: Array<{ label?: string, text: string, system?: string, temperature?: number, max_tokens?: number, response_format?: Record<string, unknown> }>
  providers: PromptfooProvider[]
  /** The case input's fields. */
  vars: string[]
  /** The assertions evaluator after each LLM step. */
  evaluator: Record<string, unknown>
  /** Whether an assertion reads the model's latency (`latency`). */
  latency: boolean
  /** Whether an assertion reads the call's cost (`cost`). */
  cost?: boolean
  /** Whether each cell's own model grades its model-graded assertions (no grader is named). */
  gradedByProvider?: boolean
}

/** promptfoo's `openai:…`, `openai:chat:…`, `anthropic:…` and `anthropic:messages:…` as a judgeflow model. */
export function providerModel(id: string, where: string): string {
  const match = /^(openai|anthropic)(?::(?:chat|messages|embedding|embeddings))?:([^:]+)$/.exec(id.trim())
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

/**
 * The workflow, and the name of each cell of the prompts × providers grid in order. With one cell:
 * input → generate → judge. With several, each case runs one cell: a condition on the case's
 * `cell` leads to that cell's LLM step and its judge, so each cell has its own verdict.
 */
export function buildPromptfooWorkflow(parts: WorkflowParts): { workflow: Record<string, unknown>, cells: string[] } {
  const nodes: Array<Record<string, unknown>> = []
  const edges: Array<Record<string, unknown>> = []
  const fields = Object.fromEntries(parts.vars.filter(v => /^[a-zA-Z_][a-zA-Z0-9_]*$/.test(v)).map(v => [v, { type: v === 'assert' ? 'array' : v === 'cell' ? 'number' : 'any' }]))
  nodes.push({ id: 'input', type: 'input', config: { fields } })
  const cells: Array<{ prompt: WorkflowParts['prompts'][number], p: number, provider: PromptfooProvider, v: number }> = []
  // Provider by provider, as promptfoo orders its columns.
  parts.providers.forEach((provider, v) => parts.prompts.forEach((prompt, p) => {
    if (!provider.prompts || provider.prompts.includes(p)) cells.push({ prompt, p, provider, v })
  }))
  const several = cells.length > 1
  if (several) fields.cell = { type: 'number' }
  const taken = new Set<string>()
  cells.forEach(({ prompt, p, provider, v }, k) => {
    let llm = several ? `prompt_${p + 1}${parts.providers.length > 1 ? `_${slug(provider.label ?? provider.model) || v + 1}` : ''}`.slice(0, 44) : 'generate'
    for (let n = 2; taken.has(llm); n++) llm = `${llm.slice(0, 40)}_${n}`
    taken.add(llm)
    const model = provider.model
    const temperature = prompt.temperature ?? provider.temperature
    const max_tokens = prompt.max_tokens ?? provider.max_tokens
    const format = prompt.response_format ?? provider.response_format
    if (format && model.startsWith('anthropic:')) throw new JudgeflowError('INVALID_INPUT', `${provider.model}: a response_format is not imported for an anthropic provider, which has none; remove it, or ask for JSON in the prompt`)
    if (provider.http || provider.code) {
      if (prompt.system) throw invalid(`the promptfoo config: ${prompt.label ?? 'a prompt'} is a chat with a system message, which judgeflow does not send to ${provider.label ?? provider.model} (an http endpoint or your own code); give it a text prompt`)
      if (parts.gradedByProvider) throw invalid(`the promptfoo config: no grader is named, and ${provider.label ?? provider.model} is ${provider.http ? 'an http endpoint' : 'your own code'}, which cannot grade; set defaultTest.options.provider, or --grader`)
      if (provider.http) nodes.push({ id: llm, type: 'http', config: withPrompt(provider.http.config, prompt.text) })
      else {
        const code = provider.code!.config as { promptfoo: Record<string, unknown> }
        nodes.push({ id: llm, type: 'code', config: { ...code, promptfoo: { ...code.promptfoo, prompt: prompt.text } } })
      }
    }
    else nodes.push({
      id: llm, type: 'llm',
      config: {
        model,
        prompt: prompt.text,
        ...(prompt.system ? { system: prompt.system } : {}),
        ...(temperature === undefined ? {} : { temperature }),
        ...(max_tokens === undefined ? {} : { max_tokens }),
        ...(format ? { response_format: format } : {}),
      },
    })
    if (several) {
      const route = `${llm}_cell`
      nodes.push({ id: route, type: 'condition', config: { left: '{{input.cell}}', op: 'eq', right: k + 1 } })
      edges.push({ from: 'input', to: route }, { from: route, to: llm, when: 'true' })
    }
    else edges.push({ from: 'input', to: llm })
    const judge = several ? `${llm}_judge` : 'judge'
    const http = provider.http && (provider.http.responseTransform ? { response_transform: provider.http.responseTransform } : provider.http.config.answer === undefined ? { provider_output: 'json_or_text' } : {})
    // promptfoo's OpenAI chat provider parses an answer to a json_schema response_format into an object before any assertion sees it.
    const parsed = !provider.http && !provider.code && format?.type === 'json_schema' ? { provider_output: 'json' } : {}
    nodes.push({
      id: judge, type: 'evaluator', config: {
        ...parts.evaluator, ...(parts.gradedByProvider ? { model } : {}), content: `{{steps.${llm}.text}}`, context: prompt.text, ...http, ...parsed,
        ...(provider.transform ? { provider_transform: provider.transform } : {}), ...(parts.latency ? { latency_ms: `{{steps.${llm}.latency_ms}}` } : {}),
        // An http endpoint or a script reports no price: promptfoo's cost assertion then has none to read.
        ...(parts.cost ? { cost_usd: provider.http || provider.code ? null : `{{steps.${llm}.cost_usd}}` } : {}),
      },
    })
    edges.push({ from: llm, to: judge })
  })
  const env = [...new Set(parts.providers.flatMap(p => p.http?.env ?? []))]
  return {
    workflow: { name: parts.name, nodes, edges, ...(env.length ? { settings: { env } } : {}) },
    cells: cells.map(({ prompt, p, provider }) => `${prompt.label ?? `prompt ${p + 1}`} · ${provider.label ?? provider.model}`),
  }
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '')
}

/**
 * The prompts a provider runs: all of them, or those its `prompts` names (by label, or by the
 * prompt's text or file), as promptfoo pairs them. Indexes into `prompts`; a name that matches no
 * prompt is refused.
 */
export function promptsOfProvider(
  names: unknown, prompts: ReadonlyArray<{ label?: string, text: string, source?: string }>, where: string,
): number[] | undefined {
  if (names === undefined) return undefined
  const list = Array.isArray(names) ? names : [names]
  return list.flatMap((name, n) => {
    if (typeof name !== 'string') throw invalid(`the promptfoo config, ${where}.prompts[${n}]: name a prompt by its label`)
    const matches = prompts.flatMap((prompt, i) => (promptMatches(name, prompt) ? [i] : []))
    if (!matches.length) throw invalid(`the promptfoo config, ${where}.prompts[${n}]: no prompt is labelled "${name}"`)
    return matches
  })
}

/**
 * Whether a provider's `prompts` entry names a prompt: its label, file or text, a `prefix*`, or a
 * label's `<name>:` prefix (the prompts of a labelled file), as promptfoo matches them.
 */
function promptMatches(name: string, prompt: { label?: string, text: string, source?: string }): boolean {
  if (prompt.label === name || prompt.source === name || prompt.text === name) return true
  if (name.endsWith('*') && prompt.label?.startsWith(name.slice(0, -1))) return true
  return prompt.label?.startsWith(`${name}:`) === true
}
