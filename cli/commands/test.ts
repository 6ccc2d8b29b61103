import { existsSync, readFileSync } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { JudgeflowConfig } from '../../core/config'
import type { DatasetRunProgress } from '../../core/datasets'
import { defaultRegistry, JudgeflowError, readEvaluatorConfigFile, validatedWorkflow } from '../../engine'
import {
  changeText, checkBaselineReport, datasetReportToHtml, datasetReportToJunit, datasetReportToMarkdown, datasetResultsToCsv, datasetResultsToJsonl,
  exitCodeOf, formatFromName, parseDatasetFile, regressionRule, reportWarningLine,
  type CostEstimate, type DatasetCase, type DatasetGates, type DatasetReport, type MarkdownReportOptions,
} from '../../engine/datasets'
import { filteredCases, numberFlag, runFlagsOf } from '../test-flags'
import { modelRefSchema } from '../../engine/schema/common'
import { graderModel } from '../../engine/datasets/promptfoo-graders'
import { noteUnisolatedCode, withApp } from '../app'
import { withRequiredJudge } from '../judge-flag'
import { COMMANDS } from '../help/commands'
import { readPromptfooConfig } from '../promptfoo'
import { readJsonFile, readTextFile, type Io } from '../io'
import { checkOutputFiles, writeOutputFile, type InputFile, type OutputFile } from '../output-paths'
import { TEST_USAGE } from '../usage'
import { recordedOutputsOf } from '../recorded-outputs'
import { readModelOutputs } from '../model-outputs'
import { recordedOutputsNote } from '../../engine/datasets/recorded-outputs-note'
import { calibrationText, kappaUncertainty } from '../../engine/datasets/kappa-interval'

export { TEST_USAGE }

/** The pass rate a run must reach when no --min-pass-rate is given: every case passes. */
export const DEFAULT_MIN_PASS_RATE = 1

/**
 * `judgeflow test`: a workflow (or an evaluator config alone) over every case of a dataset file,
 * gated. Exit 0 every gate holds, 1 a gate fails (the report names which), 2 invalid input or
 * more errored cases than --max-errors (0 by default).
 */
export async function testCommand(args: string[], io: Io, config: JudgeflowConfig, terminal = false): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: COMMANDS.test.flags,
  })
  const [firstFile] = positionals
  // A file alone is a promptfoo config, run as promptfoo runs it: its tests × prompts × providers.
  const promptfooFile = firstFile && !values.dataset && !values.config && !isWorkflowFile(firstFile) ? firstFile : undefined
  const workflowFile = promptfooFile ? undefined : firstFile
  // promptfoo's standalone assertion mode: recorded outputs judged by an assertions file (cli/model-outputs.ts).
  const standalone = values.assertions !== undefined || values['model-outputs'] !== undefined
  if (standalone && (values.dataset || values.config || workflowFile || values.outputs)) {
    throw new JudgeflowError('INVALID_INPUT', '--assertions and --model-outputs judge promptfoo\'s recorded outputs alone (with a promptfoo config at most): give no --dataset, --config, workflow or --outputs with them.')
  }
  if (!promptfooFile && !standalone && (!values.dataset || (!workflowFile) === (!values.config))) {
    io.err(`test needs ${values.dataset ? '' : 'a dataset and '}either a workflow file or --config, or a promptfoo config alone: ${TEST_USAGE}`)
    return 2
  }
  if (values['skip-unsupported'] && !promptfooFile && !standalone) throw new JudgeflowError('INVALID_INPUT', '--skip-unsupported imports a promptfoo config whose assertions judgeflow cannot all run: give it with judgeflow test <promptfooconfig.yaml>.')
  if (values.grader !== undefined && !modelRefSchema.safeParse(values.grader).success) {
    throw new JudgeflowError('INVALID_INPUT', `--grader must be "provider:model", e.g. "openai:gpt-4o-mini", not "${values.grader}".`)
  }
  const inputs = inputsOf(values, workflowFile)
  // promptfoo's openai:chat:<model> names the model <model>, as a config's provider ids do.
  const grader = values.grader === undefined ? undefined : graderModel(values.grader)
  const readOptions = { judge: grader, maxDepth: config.maxJsonDepth, skipUnsupported: values['skip-unsupported'] }
  const promptfoo = standalone
    ? readModelOutputs(values, promptfooFile, readOptions, inputs)
    : promptfooFile ? readPromptfooConfig(promptfooFile, readOptions, inputs) : undefined
  checkOutputFiles(outputsOf(values), { inputs })
  const flagValue = (flag: string) => values[flag as keyof typeof values] as string | undefined
  const whole = (flag: string, min: number, max: number) => numberFlag(flagValue(flag), flag, { min, max, whole: true })
  const share = (flag: string, min = 0) => numberFlag(values[flag as keyof typeof values] as string | undefined, flag, { min, max: 1 })
  const gates: DatasetGates = { max_errors: whole('max-errors', 0, 1_000_000) ?? 0 }
  const minPassRate = share('min-pass-rate')
  const minKappa = share('min-kappa', -1)
  // Failing by default, as promptfoo: without --min-pass-rate every case must pass.
  gates.min_pass_rate = minPassRate ?? DEFAULT_MIN_PASS_RATE
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
  const baselineFile = values.baseline ? readJsonFile(values.baseline, 'baseline report', config.maxJsonDepth) : undefined
  const run = runFlagsOf(values)

  let parsed: { name?: string, cases: DatasetCase[] }
  let target: { definition?: Record<string, unknown>, evaluator?: Record<string, unknown> }
  if (promptfoo) {
    if (!promptfoo.workflow && !standalone) throw new JudgeflowError('INVALID_INPUT', `${promptfooFile}: the promptfoo config needs prompts and providers to run; without them, import its tests (judgeflow import promptfoo) and judge outputs you have with --config.`)
    for (const note of promptfoo.notes) io.err(`Note: ${note}`)
    parsed = { name: promptfoo.name, cases: promptfoo.cases }
    // Recorded outputs (--model-outputs) are judged by the assertions alone; a config's tests run through its prompts × providers.
    target = standalone ? { evaluator: promptfoo.evaluator! } : { definition: promptfoo.workflow }
  }
  else {
    const format = formatFromName(values.dataset!)
    if (!format) throw new JudgeflowError('INVALID_INPUT', `--dataset "${values.dataset}": name a .csv, .jsonl, .json or .yaml file.`)
    const text = readTextFile(values.dataset!, 'dataset')
    parsed = parseDatasetFile(text, format, { where: `the dataset file "${values.dataset}"`, maxDepth: config.maxJsonDepth })
    target = workflowFile
      ? { definition: readJsonFile(workflowFile, 'workflow', config.maxJsonDepth) as Record<string, unknown> }
      : { evaluator: await readEvaluatorConfigFile(values.config!) }
  }
  const recorded = recordedOutputsOf(values, parsed.cases, config.maxJsonDepth)
  if (recorded) parsed = { ...parsed, cases: recorded.cases }
  const name = parsed.name ?? basename(values.dataset!).replace(/\.[^.]+$/, '')
  if (values.baseline) checkBaselineReport(baselineFile, { name, caseIds: parsed.cases.map(c => c.id) }, `The baseline report "${values.baseline}"`)
  const chosen = filteredCases(values, { name, cases: parsed.cases }, config.maxJsonDepth)
  const repeat = whole('repeat', 1, 20) ?? promptfoo?.run.repeat
  if (maxFlaky !== undefined && (repeat ?? 1) < 2) {
    throw new JudgeflowError('INVALID_INPUT', '--max-flaky needs --repeat N with N of 2 or more: a case run once cannot be flaky.')
  }
  // A workflow with problems is refused, every problem listed, before the dataset is kept or any case runs.
  if (target.definition) validatedWorkflow(target.definition, defaultRegistry)

  // The endpoint the config's providers name (apiBaseUrl, apiHost) is where this run calls them, as promptfoo would.
  const endpoints = promptfoo?.endpoints
  const withEndpoints = endpoints ? { ...config, providers: { ...config.providers, keys: { ...config.providers.keys, ...endpoints } } } : config
  // A promptfoo config's provider files (file://provider.js, exec: python3 script.py) lie beside it, where promptfoo finds them.
  const withJudge = withRequiredJudge(withEndpoints, values['require-judge'])
  const appConfig = promptfooFile && !standalone
    ? { ...withJudge, evaluation: { ...withJudge.evaluation, configDir: dirname(resolve(promptfooFile)) } }
    : withJudge
  await noteUnisolatedCode([target, chosen.cases], config, io)
  const report = await withApp(appConfig, values.db, async (app) => {
    // With --db the dataset is kept under its name: a file that changed is its next version.
    const known = await app.store.datasets.findByName(name)
    const dataset = (known ? await app.store.datasets.update(known.id, { cases: parsed.cases }) : null) ?? await app.store.datasets.create(name, parsed.cases)
    let request
    if (target.definition) {
      const workflow = await app.store.workflows.create({ ...target.definition, name: String(target.definition.name ?? name) })
      request = { workflow_id: workflow.id }
    }
    else {
      request = { evaluator: target.evaluator! }
    }
    const started = await app.datasets.start({
      dataset: dataset.id,
      target: request,
      ...run,
      concurrency: run.concurrency ?? promptfoo?.run.concurrency,
      delay_ms: run.delay_ms ?? promptfoo?.run.delay_ms,
      cache: run.cache ?? promptfoo?.run.cache,
      repeat,
      ...(maxCost === undefined ? {} : { max_cost_usd: maxCost }),
      ...(values.force ? { force: true } : {}),
      ...(calibration === undefined
        ? {}
        : { require_calibration: { dataset: calibration, min_kappa: minKappa!, ...(minKappaLower === undefined ? {} : { min_kappa_lower: minKappaLower }) } }),
      score_step: values['score-step'],
      gates,
      ...(baselineFile ? { baseline_report: baselineFile as Record<string, unknown>, baseline_label: basename(values.baseline!) } : {}),
      ...(chosen.cases === parsed.cases ? {} : { case_ids: chosen.cases.map(c => c.id) }),
      ...(recorded?.from ? { outputs_from: recorded.from } : standalone ? { outputs_from: values['model-outputs']! } : {}),
      ...(values['output-step'] ? { output_step: values['output-step'] } : {}),
      // A promptfoo config's grader is set as it is imported.
      ...(grader && !promptfoo ? { grader } : {}),
    })
    const estimate = (started.options as { estimate?: CostEstimate }).estimate
    if (estimate) io.err(estimateLine(estimate, maxCost))
    const stop = app.datasets.subscribe(started.id, progressPrinter(io, terminal))
    await app.datasets.whenDone(started.id)
    stop()
    const row = (await app.store.datasets.getRun(started.id))!
    if (row.status !== 'finished') throw new JudgeflowError('INTERNAL', `the dataset run ${row.status}: ${(row.error as { message?: string } | null)?.message ?? 'no reason given'}`)
    return row.report as unknown as DatasetReport
  })
  // Once per run, on stderr as well as in every report: e.g. the offline judge standing in for one with no key.
  for (const warning of report.warnings ?? []) io.err(reportWarningLine(warning, report.results.length))
  if (values.report) writeOutputFile(values.report, `${JSON.stringify(report, null, 2)}\n`, '--report')
  if (values.junit) writeOutputFile(values.junit, datasetReportToJunit(report), '--junit')
  if (values.html) writeOutputFile(values.html, datasetReportToHtml(report, parsed.cases), '--html')
  if (values.csv) writeOutputFile(values.csv, datasetResultsToCsv(report), '--csv')
  if (values.jsonl) writeOutputFile(values.jsonl, datasetResultsToJsonl(report), '--jsonl')
  const drawn = chosen.seed === undefined ? undefined : `drew ${report.cases} of ${parsed.cases.length} cases with --seed ${chosen.seed} (give it again to draw the same cases)`
  if (drawn && values.markdown) io.err(`Note: ${drawn}`)
  const named = namedTarget(promptfooFile, workflowFile, values.config)
  io.out(values.markdown ? datasetReportToMarkdown(report, parsed.cases, { target: named }) : summary(report, minPassRate === undefined, drawn))
  return exitCodeOf(report)
}

/** The target as the person named it on the command line: the stored workflow's id means nothing after this command. */
function namedTarget(promptfooFile?: string, workflowFile?: string, configFile?: string): MarkdownReportOptions['target'] {
  if (promptfooFile) return { what: 'promptfoo config', name: promptfooFile }
  if (workflowFile) return { what: 'workflow file', name: workflowFile }
  return configFile ? { what: 'evaluator config', name: configFile } : undefined
}

/** The estimate, said before the first case runs (estimate.ts). */
export function estimateLine(e: CostEstimate, budget?: number): string {
  const runs = `${e.case_runs} case run${e.case_runs === 1 ? '' : 's'}`
  const within = budget === undefined || e.estimate_usd === null ? '' : e.estimate_usd > budget ? `, over the --max-cost budget of $${budget} (--force): only the case runs it pays for start` : `, within the --max-cost budget of $${budget}`
  if (e.basis === 'last_run') return `estimate: $${e.estimate_usd} for ${runs}, from the last run of this dataset on this target (${e.from_dataset_run})${within}`
  const basis = `from the prompts' length: ${e.calls} calls, about ${e.input_tokens} tokens in and ${e.output_tokens} out`
  if (e.estimate_usd === null) return `estimate: not known, no price for ${e.unpriced!.join(', ')} (${runs}, ${basis})`
  if (e.range) {
    const { low_usd: low, low_calls: lowCalls } = e.range
    return `estimate: at most about $${e.estimate_usd} for ${runs} (an upper bound; at least about $${low}, ${lowCalls} calls), ${basis} (a rough figure: ${e.shape!.join('; ')})${within}`
  }
  return `estimate: about $${e.estimate_usd} for ${runs}, ${basis} (a rough figure)${within}`
}

/** Whether the file holds a judgeflow workflow (nodes and edges), which needs a dataset, rather than a promptfoo config. */
function isWorkflowFile(file: string): boolean {
  if (!/\.json$/i.test(file) || !existsSync(file)) return false
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as { nodes?: unknown }
    return Array.isArray(value?.nodes)
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

/** A progress bar redrawn in place on a terminal; otherwise a plain line at every tenth of the case runs. */
function progressPrinter(io: Io, terminal: boolean): (progress: DatasetRunProgress) => void {
  let lastTenth = -1
  let last = ''
  return (p) => {
    if (!p.total) return
    // `done` counts runs (a case runs --repeat times), the rest cases: each is labelled so.
    const counts = `${p.done}/${p.total} case runs · cases: ${p.passed} passed · ${p.failed} failed · ${p.errored} errored`
    // Once every case has run, counts still change when select-best comparisons are decided: the last line is the report's.
    const changedAtEnd = p.done === p.total && counts !== last
    if (terminal) {
      const width = 24
      const filled = Math.round((p.done / p.total) * width)
      if (p.done === p.total && !changedAtEnd) return
      process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${counts}${p.done === p.total ? '\n' : ''}`)
      last = counts
      return
    }
    const tenth = Math.floor((p.done / p.total) * 10)
    if (tenth === lastTenth && !changedAtEnd) return
    lastTenth = tenth
    last = counts
    io.err(counts)
  }
}

/** Why a κ cannot tell, its head in capitals as the summary marks what must be read (FAIL, NOT RUN). */
const loud = (why: string | null) => (why ? why.replace(/^[^:]+/, head => head.toUpperCase()) : null)

function summary(report: DatasetReport, defaultPassRate: boolean, drawn?: string): string {
  const percent = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)} %`)
  const lines = [
    `${report.dataset.name}: ${report.passed} passed, ${report.failed} failed, ${report.errored} errored of ${report.cases} cases${drawn ? ` (${drawn})` : ''}`,
    `pass rate ${percent(report.pass_rate)}${report.pass_rate_ci ? ` (95 % CI ${percent(report.pass_rate_ci[0])}–${percent(report.pass_rate_ci[1])})` : ''}`,
    ...(report.recorded_outputs ? [recordedOutputsNote(report.recorded_outputs)] : []),
    ...(report.warnings ?? []).map(w => reportWarningLine(w, report.results.length)),
  ]
  // Why cases errored, so the reason is on screen and not only in the report file.
  const errored = report.results.filter(r => r.status === 'errored')
  for (const r of errored.slice(0, 3)) lines.push(`errored ${r.case_id}: ${r.error ?? 'no reason given'}`)
  if (errored.length > 3) lines.push(`… and ${errored.length - 3} more errored cases (see --report)`)
  // And why cases failed: the first check that did not pass.
  const failed = report.results.filter(r => r.verdict === 'fail')
  for (const r of failed.slice(0, 3)) {
    const check = r.checks?.find(c => c.passed === false)
    const rule = r.panel?.verdict_rule ? `: judge panel ${r.panel.verdict_rule}` : ''
    lines.push(`failed ${r.case_id}${check ? `: ${check.name}: ${(check.reason ?? '').split('\n')[0]!.slice(0, 200)}` : rule}`)
  }
  if (failed.length > 3) lines.push(`… and ${failed.length - 3} more failed cases (see --report)`)
  if (report.cost_usd !== undefined) {
    const tokens = report.tokens
    const apart = tokens.generation && tokens.judge ? ` (generation ${tokens.generation.input}+${tokens.generation.output}, judge ${tokens.judge.input}+${tokens.judge.output} tokens)` : ''
    lines.push(`cost: ${report.cost_usd === null ? 'not known (a model without a price)' : `$${report.cost_usd}`}${apart}`)
  }
  if (report.not_run?.length) {
    const budget = report.gates.find(g => g.gate === 'max_cost_usd')
    const why = budget ? `the budget of $${budget.required} was reached, or a run's cost was not known (--max-cost)` : 'the run was cut short'
    lines.push(`NOT RUN ${report.not_run.length} of ${report.cases} cases: ${why}; they are not passes (exit 2)`)
  }
  if (report.pass_all_repeats !== undefined) {
    const spread = report.results.reduce((most, r) => Math.max(most, r.score_sd ?? 0), 0)
    lines.push(`repeats: pass^N ${percent(report.pass_all_repeats)} (every repeat passed), pass@N ${percent(report.pass_any_repeat ?? null)} (a repeat passed), ${report.flaky.length} flaky; largest score SD ${spread}`)
  }
  const agreement = report.agreement
  // A κ that cannot tell says so on its line, marked as FAIL and NOT RUN are (kappa-interval.ts).
  if (agreement?.labelled) {
    const why = loud(kappaUncertainty(agreement))
    const ci = agreement.kappa_ci ? ` [${agreement.kappa_ci[0].toFixed(2)}, ${agreement.kappa_ci[1].toFixed(2)}]` : ''
    lines.push(`judge agreement: κ ${agreement.kappa ?? '—'} on ${agreement.labelled} labelled cases, accuracy ${percent(agreement.accuracy)}${why ? `; κ's 95 % interval${ci} — ${why}` : ''}`)
  }
  if (report.calibration) {
    const why = loud(kappaUncertainty(report.calibration))
    lines.push(`calibration against people: ${calibrationText(report.calibration)}${why ? ` — ${why}` : ''}`)
  }
  if (agreement?.judges) {
    lines.push(`judges agree: Fleiss' κ ${agreement.judges_kappa ?? '—'} over ${agreement.judges.runs} runs of ${agreement.judges.models.join(', ')}, pairs agreeing ${percent(agreement.judges.pair_agreement)}`)
  }
  if (report.baseline) {
    const b = report.baseline
    lines.push(`against ${b.report}: ${b.regressions.length} regressions, ${b.fixes.length} fixes; ${regressionRule(b)} (McNemar p = ${b.mcnemar_p})`)
    const changes = new Map(b.changes.map(c => [c.case_id, c]))
    for (const id of b.regressions.slice(0, 3)) lines.push(`regressed ${id}${changes.has(id) ? `: ${changeText(changes.get(id)!)}` : ''}`)
    if (b.regressions.length > 3) lines.push(`… and ${b.regressions.length - 3} more regressions (see --report)`)
  }
  for (const gate of report.gates) {
    const by = gate.gate === 'min_pass_rate' && defaultPassRate ? ' (the default: every case must pass; --min-pass-rate R allows failures)' : ''
    lines.push(`${gate.passed ? 'ok  ' : 'FAIL'} ${gate.gate}: required ${gate.required}${by}, actual ${gate.actual ?? '—'}`)
  }
  return lines.join('\n')
}
