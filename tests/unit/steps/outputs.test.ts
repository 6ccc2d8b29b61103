import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProviders, defaultRegistry, runWorkflow, stepSpecs, validateWorkflow, type RunEvent } from '../../../engine'
import { typesOf, type OutputField } from '../../../engine/steps/outputs'
import { builtinStepOutputs } from '../../../engine/steps/output-declarations'
import { FakeLLM, lastUserText } from '../../support/fake-llm'
import { workflowCorpus } from '../../support/workflow-corpus'

const specs = stepSpecs()

function typeOfValue(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

/** Where a value and its declaration part: a key not declared, a declared one missing, a wrong type. */
function drift(field: OutputField, value: unknown, at: string): string[] {
  const types = typesOf(field)
  if (!types.includes('any') && !types.includes(typeOfValue(value) as never)) return [`${at} is ${typeOfValue(value)}, declared ${types.join(' | ')}`]
  const out: string[] = []
  if (field.items && Array.isArray(value)) value.forEach((item, i) => out.push(...drift(field.items!, item, `${at}[${i}]`)))
  if (field.fields && value && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>
    for (const [key, item] of Object.entries(record)) {
      if (item === undefined) continue
      const declared = field.fields[key]
      if (declared) out.push(...drift(declared, item, `${at}.${key}`))
      else if (!field.open) out.push(`${at}.${key} is output but not declared (declared: ${Object.keys(field.fields).join(', ')})`)
    }
    for (const [key, declared] of Object.entries(field.fields)) {
      if (!declared.optional && record[key] === undefined) out.push(`${at}.${key} is declared but not output`)
    }
  }
  return out
}

/** The corpus's runs: each step's output against its type's declaration, and the top-level fields seen per type. */
async function checkRuns(providers: ReturnType<typeof createProviders>, unpin: boolean) {
  const problems: string[] = []
  const seen = new Map<string, Set<string>>()
  const declared = new Map<string, Set<string>>()
  for (const { name, workflow, input, calls } of workflowCorpus()) {
    if (calls && !unpin) continue
    const events: RunEvent[] = []
    const nodes = (workflow.nodes as Array<Record<string, any>>).map(node => (unpin && node.type === 'llm' ? { ...node, pinned: undefined } : node))
    // Unpinned, a workflow that reads fields only its pins give (a judge's `passed`) is refused before it runs.
    if (unpin && !validateWorkflow({ ...workflow, nodes }, defaultRegistry).ok) continue
    await runWorkflow({ ...workflow, nodes }, { registry: defaultRegistry, providers, input, onEvent: (e) => { events.push(e) } })
    for (const event of events) {
      if (event.type !== 'step.succeeded' || event.step.pinned) continue
      const node = nodes.find(n => n.id === event.step.node_id)!
      const declaration = specs.get(node.type)!.outputs?.(node.config ?? {})
      if (!declaration) {
        problems.push(`${node.type} declares no outputs`)
        continue
      }
      const kind = node.type === 'evaluator' ? `evaluator ${node.config.evaluation_type}` : node.type
      for (const p of drift(declaration, event.step.output, `${name}: steps.${node.id}`)) problems.push(p)
      for (const key of Object.keys(declaration.fields ?? {})) (declared.get(kind) ?? declared.set(kind, new Set()).get(kind)!).add(key)
      for (const key of Object.keys(event.step.output as object)) (seen.get(kind) ?? seen.set(kind, new Set()).get(kind)!).add(key)
    }
  }
  return { problems, seen, declared }
}

describe('every step type declares what it outputs', () => {
  it('in one place: the editor\'s list (free of zod) holds each spec\'s own declaration', () => {
    for (const type of specs.types()) expect(builtinStepOutputs[type], type).toBe(specs.get(type)!.outputs)
  })

  const fake = new FakeLLM()
  beforeAll(async () => { await fake.start() })
  afterAll(async () => { await fake.stop() })

  it('each step of every template and example outputs exactly its declared fields, of their types', async () => {
    const pinned = await checkRuns(createProviders({ env: {} }), false)
    // Called, a judge (a panel's model) gets a verdict on the criteria its schema names; other calls an echo.
    fake.onRequest((request) => {
      const names = request.body.response_format?.json_schema?.schema?.properties?.criteria_scores?.required as string[] | undefined
      if (!names) return { text: `echo: ${lastUserText(request).slice(0, 80)}` }
      const each = <T>(value: T) => Object.fromEntries(names.map(name => [name, value]))
      return { json: { criteria_scores: each(0.8), criteria_reasons: each('ok'), feedback: 'ok', suggestions: [] } }
    })
    const called = await checkRuns(createProviders({ env: fake.env(), retry: { baseDelayMs: 1, maxDelayMs: 5 } }), true)
    expect([...pinned.problems, ...called.problems]).toEqual([])
    // Every field a type declares is output by some run (an optional one too): none is declared in vain.
    const unseen: string[] = []
    const kinds = new Set([...pinned.declared.keys(), ...called.declared.keys()])
    for (const kind of kinds) {
      const declared = new Set([...pinned.declared.get(kind) ?? [], ...called.declared.get(kind) ?? []])
      const seen = new Set([...pinned.seen.get(kind) ?? [], ...called.seen.get(kind) ?? []])
      for (const key of declared) if (!seen.has(key)) unseen.push(`${kind}.${key}`)
    }
    expect(unseen).toEqual([])
    // Each step type and each evaluation type ran.
    expect([...kinds].sort()).toEqual(['condition', 'evaluator comparison', 'evaluator criteria', 'evaluator metrics', 'evaluator rubric', 'evaluator scorers', 'evaluator scoring', 'evaluator trace', 'input', 'llm', 'output', 'retry'])
  }, 60_000)
})
