import { JudgeflowError } from '../errors'
import { findReferences } from '../executor/references'
import { configWithGraphDefaults } from '../graph/graph-defaults'
import { buildGraph } from '../graph/topology'
import type { StepSpecs } from '../steps/types'
import type { Workflow } from '../schema/workflow'
import { DEFAULT_MAX_JSON_DEPTH, readJson } from '../text/safe-json'
import type { DatasetCase, RecordedOutput } from './schema'
import type { RecordedOutputs } from './recorded-outputs-note'
import { asSentence } from '../text/sentence'

/**
 * Recorded outputs: outputs already produced (production logs, another tool's run) judged without
 * calling anything. A case's `output` (a dataset's `output` column or field, or a line of an
 * `--outputs` file) stands in for the step that generates the text the evaluators judge: that step
 * is pinned to it, as `pinned` pins a step, so its run makes no call. For an evaluator config judged
 * alone, it is the `content` judged.
 */

export { DATASET_OUTPUT_COLUMN, recordedOutputsNote, type RecordedOutputs } from './recorded-outputs-note'

/**
 * An outputs file: JSONL, one line per case, `{ "id": "<case id>", "output": "<text>" | { … } }`.
 * Refused whole, naming the file, the line and the case id, for a line that is not such an object,
 * or an id given twice.
 */
export function parseOutputsFile(text: string, where: string, maxDepth = DEFAULT_MAX_JSON_DEPTH): Map<string, RecordedOutput> {
  const outputs = new Map<string, RecordedOutput>()
  const lines = new Map<string, number>()
  const body = text.charCodeAt(0) === 0xFEFF ? text.slice(1) : text
  body.split('\n').forEach((row, index) => {
    const line = index + 1
    if (!row.trim()) return
    const at = `${where}, line ${line}`
    const read = readJson(row, maxDepth)
    if (!read.ok) throw refused(`${at} ${read.reason}`)
    const value = read.value as { id?: unknown, output?: unknown } | null
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw refused(`${at} is not an object { "id": "<case id>", "output": "<text>" }`)
    if (typeof value.id !== 'string' || !value.id.trim()) throw refused(`${at}: "id" must be the case's id (a non-empty string)`)
    const id = value.id.trim()
    const extra = Object.keys(value).filter(key => key !== 'id' && key !== 'output')
    if (extra.length) throw refused(`${at} (case "${id}"): unknown key(s) ${extra.join(', ')}; a line holds "id" and "output" only`)
    const problem = outputProblem(value.output)
    if (problem) throw refused(`${at} (case "${id}"): ${problem}`)
    const earlier = lines.get(id)
    if (earlier !== undefined) throw refused(`${at}: case "${id}" already has its output on line ${earlier}; give each case one output`)
    lines.set(id, line)
    outputs.set(id, value.output as RecordedOutput)
  })
  if (!outputs.size) throw refused(`${where} holds no outputs: write one line per case, { "id": "<case id>", "output": "<text>" }`)
  return outputs
}

/** Why a value cannot be a recorded output; undefined when it can. */
export function outputProblem(output: unknown): string | undefined {
  if (output === undefined) return '"output" is missing: give the text the case produced (or an object, the step\'s whole output)'
  if (typeof output === 'string') return undefined
  if (output && typeof output === 'object' && !Array.isArray(output)) return undefined
  return `"output" must be a text or an object (the step's whole output), not ${output === null ? 'null' : Array.isArray(output) ? 'a list' : typeof output}`
}

/**
 * The cases with their outputs from the file: every case must have one, and every line name a case;
 * a case that already holds an output (the dataset's column) is refused rather than overwritten.
 */
export function withRecordedOutputs(cases: readonly DatasetCase[], outputs: ReadonlyMap<string, RecordedOutput>, where: string): DatasetCase[] {
  const known = new Set(cases.map(c => c.id))
  for (const id of outputs.keys()) {
    if (!known.has(id)) throw refused(`${where}: case "${id}" is not a case of the dataset; every line must name one of its cases`)
  }
  return cases.map((c) => {
    if (c.output !== undefined) throw refused(`${where}: case "${c.id}" already has an output in the dataset; give the outputs in one place, the dataset's output column or the outputs file`)
    if (!outputs.has(c.id)) throw refused(`${where} has no output for case "${c.id}"; every case needs its recorded output (nothing is generated for a case without one)`)
    return { ...c, output: outputs.get(c.id)! }
  })
}

/**
 * Whether the cases are judged on recorded outputs: none holds one (no), or all do (yes); a dataset
 * where some cases hold one and others not is refused, naming the first case without.
 */
export function holdsRecordedOutputs(cases: readonly DatasetCase[]): boolean {
  const without = cases.find(c => c.output === undefined)
  if (!without) return cases.length > 0
  const withOne = cases.find(c => c.output !== undefined)
  if (withOne) throw refused(`case "${without.id}" has no output, while case "${withOne.id}" and others do: a dataset judged on recorded outputs needs one for every case`)
  return false
}

/**
 * The step a recorded output stands in for: `named` when given (it must exist and be pinnable),
 * else the one step whose output every evaluator step judges (its `content`, or the one step
 * leading into it). Refused, naming the steps, when the evaluators judge none or several.
 */
export function generatingStep(workflow: Workflow, specs: StepSpecs, named?: string): string {
  const byId = new Map(workflow.nodes.map(n => [n.id, n]))
  const check = (id: string, why: string) => {
    const node = byId.get(id)
    if (!node) throw refused(`output_step: the workflow has no step "${id}"`)
    if (node.type === 'input' || node.type === 'evaluator' || specs.get(node.type)?.pinnable === false) {
      throw refused(`${why}: step "${id}" is a ${node.type} step, which a recorded output cannot stand in for; name the step that generates the text (output_step, --output-step)`)
    }
    return id
  }
  if (named) return check(named, 'output_step')
  const graph = buildGraph(workflow)
  const judged = new Set<string>()
  const evaluators = workflow.nodes.filter(n => n.type === 'evaluator')
  if (!evaluators.length) throw refused('the workflow has no evaluator step to judge the recorded outputs')
  for (const node of evaluators) {
    const { content } = configWithGraphDefaults(graph, node.id, specs)
    for (const found of findReferences(content)) {
      if (found.reference?.root === 'steps' && found.reference.nodeId) judged.add(found.reference.nodeId)
    }
  }
  const steps = [...judged]
  if (steps.length === 1) return check(steps[0]!, `the evaluators judge step "${steps[0]}"`)
  if (!steps.length) throw refused('no evaluator step judges another step\'s output (their content names none), so a recorded output has nothing to stand in for: name the step with output_step (--output-step)')
  throw refused(`the evaluator steps judge the outputs of several steps (${steps.map(s => `"${s}"`).join(', ')}): name the one the recorded outputs stand in for with output_step (--output-step)`)
}

/** The definition with `step` pinned to the output: its run makes no call. */
export function pinnedTo(definition: Record<string, unknown>, step: string, output: RecordedOutput): Record<string, unknown> {
  const nodes = (definition.nodes as Array<Record<string, unknown>>).map(n => (n.id === step ? { ...n, pinned: [output] } : n))
  return { ...definition, nodes }
}

/**
 * A case's input for an evaluator config judged alone: its recorded output is the `content` judged
 * (a text, or an object's `text`); a case that also gives a content of its own is refused.
 */
export function inputWithOutput(c: DatasetCase): Record<string, unknown> {
  const output = c.output
  if (output === undefined) return c.input
  const text = typeof output === 'string' ? output : typeof output.text === 'string' ? output.text : undefined
  if (text === undefined) throw refused(`case "${c.id}": for an evaluator config the recorded output is the text judged: give a text, or an object with a "text"`)
  const own = ['content', 'submission'].find(field => c.input[field] !== undefined)
  if (own) throw refused(`case "${c.id}" has both an input "${own}" and a recorded output, which is the content judged: keep one`)
  return { ...c.input, content: text }
}

/** What one case's run is given: the definition and input as they are, or with its recorded output in place. */
export function caseRunOf(
  definition: Record<string, unknown>, c: DatasetCase, recorded?: RecordedOutputs,
): { definition: Record<string, unknown>, input: Record<string, unknown> } {
  if (!recorded) return { definition, input: c.input }
  if (c.output === undefined) throw refused(`case "${c.id}" has no recorded output`)
  return recorded.step ? { definition: pinnedTo(definition, recorded.step, c.output), input: c.input } : { definition, input: inputWithOutput(c) }
}

function refused(message: string): JudgeflowError {
  return new JudgeflowError('INVALID_INPUT', asSentence(message))
}
