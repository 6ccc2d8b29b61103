import type { DatasetRunProgress } from '../core/datasets'
import { changeText, regressionRule, reportWarningLine, type CostEstimate, type DatasetReport } from '../engine/datasets'
import { recordedOutputsNote } from '../engine/datasets/recorded-outputs-note'
import { calibrationText, kappaUncertainty } from '../engine/datasets/kappa-interval'
import type { Io } from './io'

/* What `judgeflow test` prints: the estimate before the first case, the progress, and the summary. */

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

/** A progress bar redrawn in place on a terminal; otherwise a plain line at every tenth of the case runs. */
export function progressPrinter(io: Io, terminal: boolean): (progress: DatasetRunProgress) => void {
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

export function summary(report: DatasetReport, defaultPassRate: boolean, drawn?: string): string {
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
