import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import type { JudgeflowConfig } from '../../core/config'
import type { PromptfooImport } from '../../engine/datasets'
import type { Io } from '../io'
import { readPromptfooConfig } from '../promptfoo'
import { checkOutputFiles, checkOutputFolder, writeOutputFile, type InputFile } from '../output-paths'
import { IMPORT_USAGE } from '../usage'
import { COMMANDS } from '../help/commands'

export { IMPORT_USAGE }

/**
 * `judgeflow import promptfoo`: writes a promptfoo config's tests as a dataset file, its assertions
 * as an evaluator config and its prompts × providers as a workflow. A config with an assertion it
 * cannot map is refused, naming each (with --skip-unsupported: imported, each such case erroring).
 * Exit 0 imported, 2 invalid input.
 */
export function importCommand(args: string[], io: Io, config: JudgeflowConfig): number {
  const [source, ...rest] = args
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: COMMANDS.import.flags,
  })
  const [file] = positionals
  if (source !== 'promptfoo' || !file || !values.out) {
    io.err(`import needs ${source === 'promptfoo' ? '' : 'the source (promptfoo), '}${file ? '' : 'the config file, '}${values.out ? '' : '--out <folder>, '}as in: ${IMPORT_USAGE}`.replace(', as in', ' as in'))
    return 2
  }
  checkOutputFolder(values.out, '--out')
  const inputs: InputFile[] = []
  const imported = readPromptfooConfig(file, { judge: values.grader ?? values.judge, name: values.name, maxDepth: config.maxJsonDepth, skipUnsupported: values['skip-unsupported'] }, inputs)
  const out = (name: string, value: unknown) => ({ path: join(values.out!, name), flag: '--out', text: `${JSON.stringify(value, null, 2)}\n` })
  const dataset = out('dataset.json', { name: imported.name, cases: imported.cases })
  const workflow = imported.workflow ? out('workflow.json', imported.workflow) : undefined
  const evaluator = imported.evaluator && !imported.workflow ? out('evaluator.json', imported.evaluator) : undefined
  const written = [dataset, workflow, evaluator].filter(file => file !== undefined)
  checkOutputFiles(written, { inputs, createsFolders: true })
  mkdirSync(values.out, { recursive: true })
  for (const file of written) writeOutputFile(file.path, file.text, file.flag)
  io.out(summary(imported, written.map(file => file.path), { dataset: dataset.path, workflow: workflow?.path, evaluator: evaluator?.path }))
  return 0
}

function summary(imported: PromptfooImport, written: string[], paths: { dataset: string, workflow?: string, evaluator?: string }): string {
  const lines = [`${imported.cases.length} tests imported as "${imported.name}", judged by ${imported.evaluators.map(e => `${e.id} (${e.cases} cases)`).join(', ') || 'no evaluator'}.`]
  lines.push(`Wrote ${written.join(', ')}.`)
  if (paths.workflow) lines.push(`Run it: judgeflow test ${paths.workflow} --dataset ${paths.dataset}`)
  else if (paths.evaluator) lines.push(`Judge cases that carry their output (actual / content): judgeflow test --config ${paths.evaluator} --dataset ${paths.dataset}`)
  const grader = imported.evaluator?.model
  lines.push(`Each case keeps its own assertions, graded as promptfoo grades them${grader ? `; model-graded ones by ${grader}${String(grader).startsWith('local:') ? ' (offline, by word overlap, not as a model would)' : ''}` : ''}.`)
  for (const note of imported.notes) lines.push(`Note: ${note}`)
  return lines.join('\n')
}
