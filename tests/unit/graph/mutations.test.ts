/**
 * A seeded mutation run over every example workflow (the templates among them): one change per
 * variant — a misspelt output or input field in a reference, a reference to a step that is not
 * upstream, a misspelt key at every depth, a renamed input field, an evaluation type switched,
 * unbalanced weights, a comparison without compare_inputs. Each variant is either refused by the
 * validation with a problem that names the change, or runs offline to a clean end with no
 * reference resolving to nothing that did not in the unchanged workflow and no key dropped.
 * The per-kind tally is printed.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { defaultRegistry, findReferences, lookup, runWorkflow, validateWorkflow, type RunResult } from '../../../engine'
import { buildGraph, downstreamOf } from '../../../engine/graph/topology'
import { evaluationTypes } from '../../../engine/schema/evaluation-types'
import { testDeps } from '../../support/workflows'

const examples = join(import.meta.dirname, '../../../examples')
/** The input each example runs with offline (its input fields' defaults otherwise). */
const INPUTS: Record<string, string> = { 'edit-gate-scorers.json': 'edit-gate-input.json' }

type Node = { id: string, type: string, config?: Record<string, unknown>, pinned?: unknown[] }
type Workflow = { name: string, nodes: Node[], edges: Array<{ from: string, to: string }> }
/** One changed workflow: the step changed, and the names a problem about the change would mention. */
interface Variant { kind: string, workflow: Workflow, node: string, names: string[], dropsKey?: boolean }

/** mulberry32: the same variants on every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6D2B79F5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A misspelling: two neighbouring letters swapped, or a letter doubled when the word is short or repeats them. */
function misspell(word: string, next: () => number): string {
  if (word.length < 3) return `${word}x`
  const i = 1 + Math.floor(next() * (word.length - 2))
  const swapped = word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2)
  return swapped === word ? `${word.slice(0, i)}${word[i]}${word.slice(i)}` : swapped
}

/** Subtrees that are data, not settings: a misspelt key there is a renamed value, not a dropped setting. */
const DATA = new Set(['value', 'pinned', 'options', 'schema', 'response_format', 'json_schema', 'metric_weights', 'actual', 'expected', 'original', 'trace', 'candidates', 'body'])
/** Objects whose keys are names the user chose (input fields, trace profiles, an http step's headers). */
const NAMED = new Set(['fields', 'profiles', 'headers'])

/** Every key path of a config that is a setting, at every depth. */
function settingPaths(value: unknown, path: Array<string | number> = [], parent?: string): Array<Array<string | number>> {
  if (Array.isArray(value)) return value.flatMap((item, i) => settingPaths(item, [...path, i], parent))
  if (!value || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([key, child]) => {
    if (DATA.has(key)) return parent && NAMED.has(parent) ? [] : [[...path, key]]
    const here = parent && NAMED.has(parent) ? [] : [[...path, key]]
    return [...here, ...settingPaths(child, [...path, key], key)]
  })
}

function renameKey(root: Record<string, unknown>, path: Array<string | number>, to: string): void {
  const holder = path.slice(0, -1).reduce<any>((at, key) => at[key], root)
  const key = path.at(-1) as string
  holder[to] = holder[key]
  delete holder[key]
}

function variantsOf(base: Workflow, seed: number): Variant[] {
  const next = random(seed)
  const out: Variant[] = []
  const clone = () => structuredClone(base)
  const graph = buildGraph(base as never)
  for (const node of base.nodes) {
    for (const ref of findReferences(node.config ?? {})) {
      const r = ref.reference
      // An environment variable's name is the machine's, checked as the step sends (unlisted or unset: refused with a sentence).
      if (!r || r.root === 'attempt' || r.root === 'env') continue
      const field = r.path.find((p): p is string => typeof p === 'string')
      if (field) {
        const wrong = misspell(field, next)
        const w = clone()
        const target = w.nodes.find(n => n.id === node.id)!
        target.config = JSON.parse(JSON.stringify(target.config).split(ref.expression).join(ref.expression.replace(field, wrong)))
        out.push({ kind: r.root === 'steps' ? 'misspelt output field' : 'misspelt input field', workflow: w, node: node.id, names: [wrong] })
      }
      if (r.root === 'steps') {
        const later = [...downstreamOf(graph, node.id)].filter(id => id !== node.id)
        const other = later[Math.floor(next() * later.length)]
        if (other) {
          const w = clone()
          const target = w.nodes.find(n => n.id === node.id)!
          target.config = JSON.parse(JSON.stringify(target.config).split(ref.expression).join(ref.expression.replace(`steps.${r.nodeId}`, `steps.${other}`)))
          out.push({ kind: 'reference to a step not upstream', workflow: w, node: node.id, names: [other] })
        }
      }
    }
    for (const path of settingPaths(node.config ?? {})) {
      const key = String(path.at(-1))
      const wrong = misspell(key, next)
      const w = clone()
      renameKey(w.nodes.find(n => n.id === node.id)!.config!, path, wrong)
      // Named by the misspelling ("unknown key") or by the key it lacks now ("is required").
      out.push({ kind: 'misspelt key', workflow: w, node: node.id, names: [wrong, key], dropsKey: true })
    }
    if (node.type === 'input') {
      for (const name of Object.keys((node.config?.fields ?? {}) as object)) {
        const w = clone()
        renameKey(w.nodes.find(n => n.id === node.id)!.config!, ['fields', name], misspell(name, next))
        out.push({ kind: 'renamed input field', workflow: w, node: node.id, names: [name] })
      }
    }
    if (node.type === 'evaluator') {
      const config = node.config ?? {}
      const others = evaluationTypes.filter(t => t !== config.evaluation_type)
      const type = others[Math.floor(next() * others.length)]!
      const switched = clone()
      switched.nodes.find(n => n.id === node.id)!.config!.evaluation_type = type
      out.push({ kind: 'evaluation type switched', workflow: switched, node: node.id, names: [node.id] })
      const criteria = config.criteria as Array<{ weight?: number }> | undefined
      if (criteria?.length && criteria.every(c => c.weight !== undefined)) {
        const w = clone()
        const list = w.nodes.find(n => n.id === node.id)!.config!.criteria as Array<{ weight: number }>
        list[0]!.weight = Math.min(1, list[0]!.weight + 0.25)
        out.push({ kind: 'unbalanced weights', workflow: w, node: node.id, names: ['criteria'] })
      }
      if (config.evaluation_type === 'comparison' && config.compare_inputs) {
        const w = clone()
        delete w.nodes.find(n => n.id === node.id)!.config!.compare_inputs
        out.push({ kind: 'comparison without compare_inputs', workflow: w, node: node.id, names: ['compare_inputs'] })
      }
    }
  }
  return out
}

/** The references of the steps that ran that resolved to nothing, as `node field expression`. */
function danglingReferences(workflow: Workflow, result: RunResult, input: unknown): Set<string> {
  const outputs = new Map(Object.entries(result.steps).filter(([, s]) => s.status === 'succeeded').map(([id, s]) => [id, s.output]))
  const inputNode = workflow.nodes.find(n => n.type === 'input')
  const given = inputNode && outputs.has(inputNode.id) ? outputs.get(inputNode.id) : input
  const found = new Set<string>()
  for (const node of workflow.nodes) {
    if (result.steps[node.id]?.status !== 'succeeded' || node.pinned?.length) continue
    for (const ref of findReferences(node.config ?? {})) {
      const r = ref.reference
      if (!r || r.root === 'attempt') continue
      const value = r.root === 'input' ? lookup(given, r.path) : outputs.has(r.nodeId!) ? lookup(outputs.get(r.nodeId!), r.path) : undefined
      if (value === undefined) found.add(`${node.id} ${ref.field} ${ref.expression}`)
    }
  }
  return found
}

/** The kinds whose change is a reference that points at nothing. */
const REFERENCE_KINDS = new Set(['misspelt output field', 'misspelt input field', 'reference to a step not upstream'])

/** A value for each required input field without a default. */
function sampleInput(workflow: Workflow): Record<string, unknown> {
  const fields = (workflow.nodes.find(n => n.type === 'input')?.config?.fields ?? {}) as Record<string, { type?: string, required?: boolean, default?: unknown }>
  const samples: Record<string, unknown> = { string: 'How do I reset my password?', number: 1, boolean: true, object: {}, array: [] }
  return Object.fromEntries(Object.entries(fields).filter(([, f]) => f.required && f.default === undefined).map(([name, f]) => [name, samples[f.type ?? 'string']]))
}

async function run(workflow: Workflow, input: unknown) {
  const { options } = testDeps()
  try {
    return await runWorkflow(workflow, { ...options, input })
  }
  catch (error) {
    return error as Error
  }
}

describe('mutations of every example workflow', () => {
  it('are refused with a problem naming the change, or run to a clean end', { timeout: 600_000 }, async () => {
    const files = readdirSync(examples).filter(f => f.endsWith('.json')).filter(f => Array.isArray(JSON.parse(readFileSync(join(examples, f), 'utf8')).nodes))
    const tally: Record<string, { variants: number, refused: number, ran: number, escapes: number }> = {}
    const escapes: string[] = []
    for (const [i, file] of files.entries()) {
      const base = JSON.parse(readFileSync(join(examples, file), 'utf8')) as Workflow
      const input = INPUTS[file] ? JSON.parse(readFileSync(join(examples, INPUTS[file]), 'utf8')) : sampleInput(base)
      const baseline = await run(base, input)
      expect(baseline, file).not.toBeInstanceOf(Error)
      const before = danglingReferences(base, baseline as RunResult, input)
      for (const variant of variantsOf(base, 1000 + i)) {
        const count = tally[variant.kind] ??= { variants: 0, refused: 0, ran: 0, escapes: 0 }
        count.variants++
        const what = `${file}: ${variant.kind} at "${variant.node}" (${variant.names.join(', ')})`
        const { problems } = validateWorkflow(variant.workflow, defaultRegistry)
        if (problems.length) {
          // A renamed input field is found at the steps that still read it by its old name.
          const onStep = (p: { node?: string }) => p.node === variant.node || variant.kind === 'renamed input field'
          const named = problems.some(p => onStep(p) && (variant.kind === 'evaluation type switched' || variant.names.some(n => `${p.path} ${p.message}`.includes(n))))
          if (named) count.refused++
          else {
            count.escapes++
            escapes.push(`${what}: refused, but no problem names it (${problems.map(p => p.message).join('; ')})`)
          }
          continue
        }
        const result = await run(variant.workflow, input)
        const dangling = result instanceof Error ? [] : [...danglingReferences(variant.workflow, result, input)].filter(r => !before.has(r))
        // A broken reference in a step that did not run (a branch not taken, a pinned output) was never checked: no clean end.
        const changed = variant.workflow.nodes.find(n => n.id === variant.node)!
        const unchecked = REFERENCE_KINDS.has(variant.kind) && !(result instanceof Error) && (result.steps[variant.node]?.status !== 'succeeded' || !!changed.pinned?.length)
        if (result instanceof Error || result.status !== 'succeeded' || dangling.length || variant.dropsKey || unchecked) {
          count.escapes++
          const why = result instanceof Error
            ? `refused at run: ${result.message}`
            : result.status !== 'succeeded'
              ? `the run ${result.status}`
              : dangling.length ? `resolved to nothing: ${dangling.join(', ')}` : unchecked ? 'the changed step did not run' : 'accepted with the key dropped'
          escapes.push(`${what}: ${why}`)
        }
        else count.ran++
      }
    }
    console.log(`Mutation tally (kind: variants, refused naming the change, ran clean, escapes)\n${Object.entries(tally).map(([kind, c]) => `  ${kind}: ${c.variants}, ${c.refused}, ${c.ran}, ${c.escapes}`).join('\n')}`)
    if (escapes.length) console.log(`Escapes:\n  ${escapes.join('\n  ')}`)
    expect(Object.values(tally).reduce((n, c) => n + c.variants, 0)).toBeGreaterThan(100)
    expect(escapes).toEqual([])
  })
})
