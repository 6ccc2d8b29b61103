import { existsSync, readFileSync } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { JudgeflowConfig } from '../../core/config'
import { testDataset, type DatasetTest } from '../../core/dataset-test'
import { defaultRegistry, JudgeflowError, readEvaluatorConfigFile, validatedWorkflow } from '../../engine'
import {
  checkBaselineReport, datasetReportToHtml, datasetReportToJunit, datasetReportToMarkdown, datasetResultsToCsv, datasetResultsToJsonl,
  exitCodeOf, formatFromName, parseDatasetFile, reportWarningLine,
  type CostEstimate, type DatasetCase, type DatasetGates, type DatasetReport, type MarkdownReportOptions, type PromptfooImport,
} from '../../engine/datasets'
import { filteredCases, numberFlag, runFlagsOf, type RunFlags } from '../test-flags'
import { modelRefSchema } from '../../engine/schema/common'
import { graderModel } from '../../engine/datasets/promptfoo-graders'
import { MAX_JSON_DEPTH_CEILING, readJson } from '../../engine/text/safe-json'
import { noteUnisolatedCode, withApp } from '../app'
import { withRequiredJudge } from '../judge-flag'
import { COMMANDS } from '../help/commands'
import { readPromptfooConfig } from '../promptfoo'
import { readJsonFile, readTextFile, type Io } from '../io'
import { checkOutputFiles, writeOutputFile, type InputFile, type OutputFile } from '../output-paths'
import { TEST_USAGE } from '../usage'
import { recordedOutputsOf } from '../recorded-outputs'
import { readModelOutputs } from '../model-outputs'
import { estimateLine, progressPrinter, summary } from '../test-summary'

export { estimateLine, TEST_USAGE }

const parseTestArgs = (args: string[]) => parseArgs({ args, allowPositionals: true, options: COMMANDS.test.flags })
type TestValues = ReturnType<typeof parseTestArgs>['values']

/** What the command runs: a workflow file, an evaluator config (--config), a promptfoo config, or promptfoo's recorded outputs alone. */
interface TestFiles {
  promptfooFile?: string
  workflowFile?: string
  /** promptfoo's standalone assertion mode: recorded outputs judged by an assertions file (cli/model-outputs.ts). */
  standalone: boolean
}

/**
 * `judgeflow test`: a workflow (or an evaluator config alone) over every case of a dataset file,
 * gated. Exit 0 every gate holds, 1 a gate fails (the report names which), 2 invalid input or
 * more errored cases than --max-errors (0 by default). The gates not given are at their defaults
 * (core/dataset-run-request.ts: every case must pass), as for the API and the library.
 */
export async function testCommand(args: string[], io: Io, config: JudgeflowConfig, terminal = false): Promise<number> {
  const { values, positionals } = parseTestArgs(args)
  const files = testFilesOf(values, positionals[0])
  if (!files) {
    io.err(`test needs ${values.dataset ? '' : 'a dataset and '}either a workflow file or --config, or a promptfoo config alone: ${TEST_USAGE}`)
    return 2
  }
  const { promptfooFile, workflowFile, standalone } = files
  const inputs = inputsOf(values, workflowFile)
  // promptfoo's openai:chat:<model> names the model <model>, as a config's provider ids do.
  const grader = values.grader === undefined ? undefined : graderModel(values.grader)
  const readOptions = { judge: grader, maxDepth: config.maxJsonDepth, skipUnsupported: values['skip-unsupported'] }
  const promptfoo = standalone
    ? readModelOutputs(values, promptfooFile, readOptions, inputs)
    : promptfooFile ? readPromptfooConfig(promptfooFile, readOptions, inputs) : undefined
  checkOutputFiles(outputsOf(values), { inputs })
  const flags = gateFlagsOf(values)
  const baselineFile = values.baseline ? readJsonFile(values.baseline, 'baseline report', config.maxJsonDepth) : undefined
  const run = runFlagsOf(values)
  const subject = await subjectOf(values, files, promptfoo, config, io, baselineFile)
  const { name, cases, chosen } = subject
  const repeat = numberFlag(values.repeat, 'repeat', { min: 1, max: 20, whole: true }) ?? promptfoo?.run.repeat
  if (flags.maxFlaky !== undefined && (repeat ?? 1) < 2) {
    throw new JudgeflowError('INVALID_INPUT', '--max-flaky needs --repeat N with N of 2 or more: a case run once cannot be flaky.')
  }
  // A workflow with problems is refused, every problem listed, before the dataset is kept or any case runs.
  if ('workflow' in subject.target) validatedWorkflow(subject.target.workflow, defaultRegistry)
  await noteUnisolatedCode([subject.target, chosen.cases], config, io)
  const request = requestOf(values, run, flags, promptfoo, {
    repeat, grader, baselineFile, cases: chosen.cases === cases ? undefined : chosen.cases, outputsFrom: subject.outputsFrom,
  })
  const report = await withApp(appConfigOf(config, values, files, promptfoo), values.db, app => testDataset(app, {
    name, cases, target: subject.target, request,
    onStart: (started) => {
      const estimate = (started.options as { estimate?: CostEstimate }).estimate
      if (estimate) io.err(estimateLine(estimate, flags.maxCost))
    },
    onProgress: progressPrinter(io, terminal),
  }))
  // Once per run, on stderr as well as in every report: e.g. the offline judge standing in for one with no key.
  for (const warning of report.warnings ?? []) io.err(reportWarningLine(warning, report.results.length))
  writeReports(values, report, cases)
  const drawn = chosen.seed === undefined ? undefined : `drew ${report.cases} of ${cases.length} cases with --seed ${chosen.seed} (give it again to draw the same cases)`
  if (drawn && values.markdown) io.err(`Note: ${drawn}`)
  const named = namedTarget(promptfooFile, workflowFile, values.config)
  io.out(values.markdown ? datasetReportToMarkdown(report, cases, { target: named }) : summary(report, flags.minPassRate === undefined, drawn))
  return exitCodeOf(report)
}

/** The files named, checked against each other; null when what to run is not said (the usage is then printed). */
function testFilesOf(values: TestValues, firstFile: string | undefined): TestFiles | null {
  // A file alone is a promptfoo config, run as promptfoo runs it: its tests × prompts × providers.
  const promptfooFile = firstFile && !values.dataset && !values.config && !isWorkflowFile(firstFile) ? firstFile : undefined
  const workflowFile = promptfooFile ? undefined : firstFile
  const standalone = values.assertions !== undefined || values['model-outputs'] !== undefined
  if (standalone && (values.dataset || values.config || workflowFile || values.outputs)) {
    throw new JudgeflowError('INVALID_INPUT', '--assertions and --model-outputs judge promptfoo\'s recorded outputs alone (with a promptfoo config at most): give no --dataset, --config, workflow or --outputs with them.')
  }
  if (!promptfooFile && !standalone && (!values.dataset || (!workflowFile) === (!values.config))) return null
  if (values['skip-unsupported'] && !promptfooFile && !standalone) throw new JudgeflowError('INVALID_INPUT', '--skip-unsupported imports a promptfoo config whose assertions judgeflow cannot all run: give it with judgeflow test <promptfooconfig.yaml>.')
  if (values.grader !== undefined && !modelRefSchema.safeParse(values.grader).success) {
    throw new JudgeflowError('INVALID_INPUT', `--grader must be "provider:model", e.g. "openai:gpt-4o-mini", not "${values.grader}".`)
  }
  return { promptfooFile, workflowFile, standalone }
}

/** The gates and limits the flags ask for; a gate not given is left to its default. */
function gateFlagsOf(values: TestValues) {
  const flagValue = (flag: string) => values[flag as keyof typeof values] as string | undefined
  const whole = (flag: string, min: number, max: number) => numberFlag(flagValue(flag), flag, { min, max, whole: true })
  const share = (flag: string, min = 0) => numberFlag(flagValue(flag), flag, { min, max: 1 })
  const gates: DatasetGates = {}
  const maxErrors = whole('max-errors', 0, 1_000_000)
  if (maxErrors !== undefined) gates.max_errors = maxErrors
  const minPassRate = share('min-pass-rate')
  if (minPassRate !== undefined) gates.min_pass_rate = minPassRate
  const minKappa = share('min-kappa', -1)
  // With --require-calibration, --min-kappa is the calibration's κ required, not a gate on this run's labels.
  const calibration = values['require-calibration']
  if (calibration !== undefined && minKappa === undefined) throw new JudgeflowError('INVALID_INPUT', '--require-calibration <dataset> needs --min-kappa K: the κ the judge\'s calibration must reach.')
  if (minKappa !== undefined && calibration === undefined) gates.min_kappa = minKappa
  const minKappaLower = share('min-kappa-lower', -1)
  if (minKappaLower !== undefined && calibration === undefined) throw new JudgeflowError('INVALID_INPUT', '--min-kappa-lower K bounds the calibration\'s κ interval: give it with --require-calibration <dataset> --min-kappa K.')
  if (values['no-regressions']) {
    if (!values.baseline) throw new JudgeflowError('INVALID_INPUT', '--no-regressions needs --baseline <report.json>: the report of an earlier run of the same dataset.')
    gates.no_regressions = true
  }
  const maxCost = numberFlag(values['max-cost'], 'max-cost', { min: 0.000001, max: 1_000_000 })
  const maxFlaky = share('max-flaky')
  if (maxFlaky !== undefined) gates.max_flaky = maxFlaky
  const requireCalibration = calibration === undefined
    ? undefined
    : { dataset: calibration, min_kappa: minKappa!, ...(minKappaLower === undefined ? {} : { min_kappa_lower: minKappaLower }) }
  return { gates, minPassRate, maxFlaky, maxCost, requireCalibration }
}
type GateFlags = ReturnType<typeof gateFlagsOf>

/** The dataset's name and cases (those chosen by --filter-* and --seed among them), and the target they run through. */
async function subjectOf(
  values: TestValues, files: TestFiles, promptfoo: PromptfooImport | undefined, config: JudgeflowConfig, io: Io, baselineFile: unknown,
) {
  let parsed: { name?: string, cases: DatasetCase[] }
  let target: DatasetTest['target']
  if (promptfoo) {
    if (!promptfoo.workflow && !files.standalone) throw new JudgeflowError('INVALID_INPUT', `${files.promptfooFile}: the promptfoo config needs prompts and providers to run; without them, import its tests (judgeflow import promptfoo) and judge outputs you have with --config.`)
    for (const note of promptfoo.notes) io.err(`Note: ${note}`)
    parsed = { name: promptfoo.name, cases: promptfoo.cases }
    // Recorded outputs (--model-outputs) are judged by the assertions alone; a config's tests run through its prompts × providers.
    target = files.standalone ? { evaluator: promptfoo.evaluator! } : { workflow: promptfoo.workflow! }
  }
  else {
    const format = formatFromName(values.dataset!)
    if (!format) throw new JudgeflowError('INVALID_INPUT', `--dataset "${values.dataset}": name a .csv, .jsonl, .json or .yaml file.`)
    const text = readTextFile(values.dataset!, 'dataset')
    parsed = parseDatasetFile(text, format, { where: `the dataset file "${values.dataset}"`, maxDepth: config.maxJsonDepth })
    target = files.workflowFile
      ? { workflow: readJsonFile(files.workflowFile, 'workflow', config.maxJsonDepth) as Record<string, unknown> }
      : { evaluator: await readEvaluatorConfigFile(values.config!) }
  }
  const recorded = recordedOutputsOf(values, parsed.cases, config.maxJsonDepth)
  const cases = recorded ? recorded.cases : parsed.cases
  const name = parsed.name ?? basename(values.dataset!).replace(/\.[^.]+$/, '')
  if (values.baseline) checkBaselineReport(baselineFile, { name, caseIds: cases.map(c => c.id) }, `The baseline report "${values.baseline}"`)
  const chosen = filteredCases(values, { name, cases }, config.maxJsonDepth)
  const outputsFrom = recorded?.from || (files.standalone ? values['model-outputs']! : undefined)
  return { name, cases, chosen, target, outputsFrom }
}

/** The dataset run asked for, beside the dataset and target. */
function requestOf(
  values: TestValues, run: RunFlags, flags: GateFlags, promptfoo: PromptfooImport | undefined,
  more: { repeat?: number, grader?: string, baselineFile?: unknown, cases?: readonly DatasetCase[], outputsFrom?: string },
): DatasetTest['request'] {
  return {
    ...run,
    concurrency: run.concurrency ?? promptfoo?.run.concurrency,
    delay_ms: run.delay_ms ?? promptfoo?.run.delay_ms,
    cache: run.cache ?? promptfoo?.run.cache,
    repeat: more.repeat,
    ...(flags.maxCost === undefined ? {} : { max_cost_usd: flags.maxCost }),
    ...(values.force ? { force: true } : {}),
    ...(flags.requireCalibration ? { require_calibration: flags.requireCalibration } : {}),
    score_step: values['score-step'],
    gates: flags.gates,
    ...(more.baselineFile ? { baseline_report: more.baselineFile as Record<string, unknown>, baseline_label: basename(values.baseline!) } : {}),
    ...(more.cases ? { case_ids: more.cases.map(c => c.id) } : {}),
    ...(more.outputsFrom ? { outputs_from: more.outputsFrom } : {}),
    ...(values['output-step'] ? { output_step: values['output-step'] } : {}),
    // A promptfoo config's grader is set as it is imported.
    ...(more.grader && !promptfoo ? { grader: more.grader } : {}),
  }
}

/** The settings the run's app opens with: a promptfoo config's endpoints and folder, and --require-judge. */
function appConfigOf(config: JudgeflowConfig, values: TestValues, files: TestFiles, promptfoo: PromptfooImport | undefined): JudgeflowConfig {
  // The endpoint the config's providers name (apiBaseUrl, apiHost) is where this run calls them, as promptfoo would.
  const endpoints = promptfoo?.endpoints
  const withEndpoints = endpoints ? { ...config, providers: { ...config.providers, keys: { ...config.providers.keys, ...endpoints } } } : config
  const withJudge = withRequiredJudge(withEndpoints, values['require-judge'])
  // A promptfoo config's provider files (file://provider.js, exec: python3 script.py) lie beside it, where promptfoo finds them.
  return files.promptfooFile && !files.standalone
    ? { ...withJudge, evaluation: { ...withJudge.evaluation, configDir: dirname(resolve(files.promptfooFile)) } }
    : withJudge
}

/** The report files asked for (--report, --junit, --html, --csv, --jsonl). */
function writeReports(values: TestValues, report: DatasetReport, cases: readonly DatasetCase[]): void {
  if (values.report) writeOutputFile(values.report, `${JSON.stringify(report, null, 2)}\n`, '--report')
  if (values.junit) writeOutputFile(values.junit, datasetReportToJunit(report), '--junit')
  if (values.html) writeOutputFile(values.html, datasetReportToHtml(report, cases as DatasetCase[]), '--html')
  if (values.csv) writeOutputFile(values.csv, datasetResultsToCsv(report), '--csv')
  if (values.jsonl) writeOutputFile(values.jsonl, datasetResultsToJsonl(report), '--jsonl')
}

/** The target as the person named it on the command line: the stored workflow's id means nothing after this command. */
function namedTarget(promptfooFile?: string, workflowFile?: string, configFile?: string): MarkdownReportOptions['target'] {
  if (promptfooFile) return { what: 'promptfoo config', name: promptfooFile }
  if (workflowFile) return { what: 'workflow file', name: workflowFile }
  return configFile ? { what: 'evaluator config', name: configFile } : undefined
}

/** Whether the file holds a judgeflow workflow (nodes and edges), which needs a dataset, rather than a promptfoo config. */
function isWorkflowFile(file: string): boolean {
  if (!/\.json$/i.test(file) || !existsSync(file)) return false
  try {
    // Read within the deepest nesting any configuration honours: the file's own reader applies the configured limit.
    const read = readJson(readFileSync(file, 'utf8'), MAX_JSON_DEPTH_CEILING)
    return read.ok && Array.isArray((read.value as { nodes?: unknown } | null)?.nodes)
  }
  catch {
    return false
  }
}

/** The files `test` writes, checked before any case runs. */
function outputsOf(values: Partial<Record<'report' | 'junit' | 'html' | 'csv' | 'jsonl', string>>): OutputFile[] {
  return (['report', 'junit', 'html', 'csv', 'jsonl'] as const).flatMap(flag => (values[flag] ? [{ path: values[flag], flag: `--${flag}` }] : []))
}

/** The files `test` reads (and the database it keeps), which no output may overwrite. */
function inputsOf(values: { 'dataset'?: string, 'config'?: string, 'baseline'?: string, 'db'?: string, 'filter-failing'?: string, 'env-file'?: string, 'outputs'?: string }, workflowFile: string | undefined): InputFile[] {
  const inputs: Array<InputFile | null> = [
    values.dataset ? { path: values.dataset, what: 'the dataset file' } : null,
    workflowFile ? { path: workflowFile, what: 'the workflow file' } : null,
    values.config ? { path: values.config, what: 'the evaluator config' } : null,
    values.baseline ? { path: values.baseline, what: 'the baseline report' } : null,
    values['filter-failing'] ? { path: values['filter-failing'], what: 'the report of --filter-failing' } : null,
    values['env-file'] ? { path: values['env-file'], what: 'the --env-file' } : null,
    values.db ? { path: values.db, what: 'the database' } : null,
    values.outputs ? { path: values.outputs, what: 'the outputs file' } : null,
  ]
  return inputs.filter(input => input !== null)
}
