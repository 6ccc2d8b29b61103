import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { JudgeflowConfig } from '../../core/config'
import { formatPath, JudgeflowError } from '../../engine'
import { experimentReport, experimentSchema, reportToMarkdown, type Judgment } from '../../engine/experiments'
import { checkTargetNode, type RoundWorkflow } from '../../engine/experiments/round'
import { parseYamlChecked } from '../../engine/text/safe-yaml'
import { noteUnisolatedCode, withApp } from '../app'
import { parseJson, readJsonFile, type Io } from '../io'
import { checkOutputFiles, writeOutputFile } from '../output-paths'
import { COMMANDS } from '../help/commands'

const USAGE = 'judgeflow experiment report <judgments.json> [--markdown] | judgeflow experiment run <experiment.json|.yaml> [--markdown] [--judgments <out.json>]'

/**
 * `experiment report`: the round's statistics and recommendation from judgments alone.
 * `experiment run`: a round end to end (every variant × document × run, judged), then its report,
 * by the same rounds as the server's, in a database kept in memory for the command's life.
 * JSON by default, tables with --markdown; exit 0, or 2 on bad input.
 */
export async function experimentCommand(args: string[], io: Io, config: JudgeflowConfig): Promise<number> {
  const [sub, ...rest] = args
  if (sub !== 'report' && sub !== 'run') {
    io.err(`experiment needs a subcommand: ${USAGE}${sub ? ` ("${sub}" is not one)` : ''}.`)
    return 2
  }
  const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: COMMANDS.experiment.flags })
  if (positionals.length !== 1) {
    io.err(`experiment ${sub} needs one file: ${USAGE}`)
    return 2
  }
  const print = (report: ReturnType<typeof experimentReport>) => io.out(values.markdown ? reportToMarkdown(report) : JSON.stringify(report, null, 2))
  if (sub === 'report') {
    print(experimentReport(readJsonFile(positionals[0]!, 'judgments', config.maxJsonDepth)))
    return 0
  }
  const path = positionals[0]!
  const experiment = parseExperiment(readText(path, 'experiment'), path, config.maxJsonDepth)
  if (!experiment.target.workflow_file) throw new JudgeflowError('INVALID_INPUT', `${path}: target.workflow_file is needed on the command line (a workflow JSON file, relative to the experiment file)`)
  const workflowPath = resolve(dirname(path), experiment.target.workflow_file)
  const workflow = readJsonFile(workflowPath, 'workflow', config.maxJsonDepth) as RoundWorkflow
  checkTargetNode({ ...workflow, nodes: Array.isArray(workflow.nodes) ? workflow.nodes : [] }, experiment.target.node)
  if (values.judgments) {
    checkOutputFiles([{ path: values.judgments, flag: '--judgments' }], {
      inputs: [{ path, what: 'the experiment file' }, { path: workflowPath, what: 'the workflow file' }],
    })
  }
  await noteUnisolatedCode(workflow, config, io)
  const round = await withApp(config, undefined, async (app) => {
    const stored = await app.store.workflows.create({ name: 'experiment target', ...workflow })
    const { id } = await app.store.experiments.create({ ...experiment, target: { ...experiment.target, workflow_id: stored.id } })
    return app.rounds.run(id, (done, total) => io.err(`judged ${done}/${total}`))
  })
  if (round.status !== 'finished') throw new JudgeflowError('INVALID_INPUT', `The round ${round.status}: ${(round.error as { message?: string } | null)?.message ?? 'see the runs'}`)
  const judgments = round.judgments as Judgment[]
  const report = experimentReport({ experiment: experiment.name, current_best: experiment.current_best, documents: experiment.documents, judgments })
  if (values.judgments) {
    const saved = { experiment: experiment.name, current_best: experiment.current_best, documents: experiment.documents, judgments }
    writeOutputFile(values.judgments, JSON.stringify(saved, null, 2), '--judgments')
  }
  print(report)
  return 0
}

function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8')
  }
  catch {
    throw new JudgeflowError('INVALID_INPUT', `Cannot read the ${what} file "${path}": it does not exist.`)
  }
}

function parseExperiment(text: string, path: string, maxDepth: number) {
  const raw = /\.ya?ml$/i.test(path)
    ? parseYamlChecked(text, { maxDepth, where: `The experiment file "${path}"` })
    : parseJson(text, `the experiment file "${path}"`, maxDepth)
  const parsed = experimentSchema.safeParse(raw)
  if (parsed.success) return parsed.data
  throw new JudgeflowError('INVALID_INPUT', `${path}: ${parsed.error.issues.slice(0, 5).map(i => `${formatPath(i.path) || '(top level)'}: ${i.message}`).join('; ')}`)
}
