import { dirname, resolve } from 'node:path'
import { importPromptfoo, type PromptfooImport } from '../engine/datasets'
import { readStructured } from '../engine/datasets/promptfoo-files'
import { JudgeflowError } from '../engine/errors'
import { readTextFile } from './io'
import type { InputFile } from './output-paths'
import { asSentence } from '../engine/text/sentence'

interface ReadOptions { judge?: string, maxDepth: number, skipUnsupported?: boolean }

/**
 * promptfoo's standalone assertion mode, `judgeflow test [promptfooconfig.yaml] --assertions <asserts.yaml>
 * --model-outputs <outputs.json>`, as promptfoo 0.123.1 reads it: the outputs file is a JSON list of texts
 * or `{ "output": "…", "tags": ["…"] }`; each becomes a test with the var `output` (and `tags`, joined
 * with ", ") and every assertion of the assertions file (a YAML or JSON list); the config's prompts,
 * providers and tests are set aside, its defaultTest and the rest kept. Nothing generates: each
 * test's output is recorded, judged as the content. Where promptfoo ignores --model-outputs without
 * --assertions, judgeflow refuses it, and refuses what promptfoo would pass over (an unknown key).
 */
export function readModelOutputs(
  values: { 'assertions'?: string, 'model-outputs'?: string }, configFile: string | undefined, options: ReadOptions, inputs: InputFile[],
): PromptfooImport & { from: string } {
  const outputsFile = values['model-outputs']
  const assertionsFile = values.assertions
  if (!assertionsFile) throw invalid('--model-outputs is read with --assertions <file>, as promptfoo reads it (promptfoo ignores it alone); to judge recorded outputs of a dataset\'s cases, give --outputs <file.jsonl>')
  if (!outputsFile) throw invalid('--assertions needs --model-outputs <outputs.json>: the outputs its assertions judge, as promptfoo takes them')
  inputs.push({ path: outputsFile, what: 'the --model-outputs file' }, { path: assertionsFile, what: 'the --assertions file' })
  const outputs = outputsOf(readStructured(readTextFile(outputsFile, 'model outputs'), `the --model-outputs file "${outputsFile}"`, options.maxDepth), outputsFile)
  const assertions = readStructured(readTextFile(assertionsFile, 'assertions'), `the --assertions file "${assertionsFile}"`, options.maxDepth)
  if (!Array.isArray(assertions) || !assertions.length || (assertions[0] as { type?: unknown } | null)?.type === undefined) {
    throw invalid(`the --assertions file "${assertionsFile}" must be a list of assertion objects (each with a type), as promptfoo reads it`)
  }
  let config: Record<string, unknown> = {}
  if (configFile) {
    inputs.push({ path: configFile, what: 'the promptfoo config' })
    const read = readStructured(readTextFile(configFile, 'promptfoo config'), `the promptfoo config "${configFile}"`, options.maxDepth)
    if (!read || typeof read !== 'object' || Array.isArray(read)) throw invalid(`the promptfoo config "${configFile}" is not a config object`)
    const { prompts: _p, providers: _v, tests: _t, ...rest } = read as Record<string, unknown>
    if (rest.scenarios !== undefined) throw invalid(`the promptfoo config "${configFile}": scenarios are not judged with --model-outputs, whose outputs are the tests; remove them`)
    config = rest
  }
  config.tests = outputs.map(({ output, tags }) => ({ vars: { output, ...(tags === undefined ? {} : { tags: tags.join(', ') }) }, assert: assertions }))
  const folder = dirname(resolve(configFile ?? assertionsFile))
  const imported = importPromptfoo(JSON.stringify(config), {
    readFile: (path) => {
      inputs.push({ path: resolve(folder, path), what: 'a file of the promptfoo config' })
      return readTextFile(resolve(folder, path), 'promptfoo')
    },
    judge: options.judge, maxDepth: options.maxDepth, skipUnsupported: options.skipUnsupported,
  })
  // Each test's output is recorded: the content its assertions judge.
  const cases = imported.cases.map((c, i) => ({ ...c, output: outputs[i]!.output }))
  return { ...imported, cases, from: outputsFile }
}

function outputsOf(value: unknown, file: string): Array<{ output: string, tags?: string[] }> {
  const where = `the --model-outputs file "${file}"`
  if (!Array.isArray(value) || !value.length) throw invalid(`${where} must be a JSON list of outputs: texts, or { "output": "…", "tags": [ … ] }`)
  return value.map((item: unknown, i) => {
    if (typeof item === 'string') return { output: item }
    const { output, tags, ...rest } = (item && typeof item === 'object' && !Array.isArray(item) ? item : {}) as { output?: unknown, tags?: unknown }
    const at = `${where}, item ${i + 1}`
    if (typeof output !== 'string') throw invalid(`${at}: give a text, or { "output": "<text>", "tags": [ … ] }`)
    if (Object.keys(rest).length) throw invalid(`${at}: unknown key(s) ${Object.keys(rest).join(', ')}; promptfoo reads "output" and "tags" only`)
    if (tags !== undefined && (!Array.isArray(tags) || tags.some(t => typeof t !== 'string'))) throw invalid(`${at}: "tags" must be a list of texts`)
    return { output, ...(tags === undefined ? {} : { tags: tags as string[] }) }
  })
}

function invalid(message: string): JudgeflowError {
  return new JudgeflowError('INVALID_INPUT', asSentence(message))
}
