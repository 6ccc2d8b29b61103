import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { JudgeflowConfig } from '../../core/config'
import { importPromptfoo, type PromptfooImport } from '../../engine/datasets'
import { readTextFile, type Io } from '../io'

export const IMPORT_USAGE = 'judgeflow import promptfoo <promptfooconfig.yaml> --out <folder> [--judge <provider:model>] [--name <dataset name>]'

/**
 * `judgeflow import promptfoo`: writes a promptfoo config's tests as a dataset file, its assertions
 * as an evaluator config and its prompts × providers as a workflow, and prints every assertion it
 * could not map. Exit 0 imported, 2 invalid input.
 */
export function importCommand(args: string[], io: Io, config: JudgeflowConfig): number {
  const [source, ...rest] = args
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { out: { type: 'string' }, judge: { type: 'string' }, name: { type: 'string' } },
  })
  const [file] = positionals
  if (source !== 'promptfoo' || !file || !values.out) {
    io.err(`import needs ${source === 'promptfoo' ? '' : 'the source (promptfoo), '}${file ? '' : 'the config file, '}${values.out ? '' : '--out <folder>, '}as in: ${IMPORT_USAGE}`.replace(', as in', ' as in'))
    return 2
  }
  const folder = dirname(resolve(file))
  const imported = importPromptfoo(readTextFile(file, 'promptfoo config'), {
    readFile: path => readTextFile(resolve(folder, path), 'promptfoo'),
    judge: values.judge,
    name: values.name,
    maxDepth: config.maxJsonDepth,
  })
  mkdirSync(values.out, { recursive: true })
  const written: string[] = []
  const write = (name: string, value: unknown) => {
    const path = join(values.out!, name)
    writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`)
    written.push(path)
    return path
  }
  const dataset = write('dataset.json', { name: imported.name, cases: imported.cases })
  const workflow = imported.workflow ? write('workflow.json', imported.workflow) : undefined
  const evaluator = imported.evaluator ? write('evaluator.json', imported.evaluator) : undefined
  io.out(summary(imported, written, { dataset, workflow, evaluator }))
  return 0
}

function summary(imported: PromptfooImport, written: string[], paths: { dataset: string, workflow?: string, evaluator?: string }): string {
  const lines = [`${imported.cases.length} tests imported as "${imported.name}", judged by ${imported.evaluators.map(e => `${e.id} (${e.cases} cases)`).join(', ') || 'no evaluator'}.`]
  lines.push(`Wrote ${written.join(', ')}.`)
  if (paths.workflow) lines.push(`Run it: judgeflow test ${paths.workflow} --dataset ${paths.dataset}`)
  else if (paths.evaluator) lines.push(`Judge cases that carry their output (actual / content): judgeflow test --config ${paths.evaluator} --dataset ${paths.dataset}`)
  if (imported.unmapped.length) {
    const total = imported.unmapped.reduce((sum, u) => sum + u.count, 0)
    lines.push(`Not imported: ${total} assertion${total === 1 ? '' : 's'} judgeflow cannot map:`)
    for (const u of imported.unmapped) lines.push(`  ${u.type} ×${u.count} (${u.tests.map(t => `"${t}"`).join(', ')}): ${u.reason}`)
  }
  else {
    lines.push('Every assertion was mapped.')
  }
  for (const note of imported.notes) lines.push(`Note: ${note}`)
  return lines.join('\n')
}
