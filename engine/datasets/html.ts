/**
 * A dataset report as one self-contained HTML file (a CI artifact opened from disk): the figures,
 * the gates, the agreement with people (κ, the confusion matrix, the recommended threshold), and a
 * table of the cases (with their inputs and expected verdicts when the dataset's cases are given)
 * with buttons that show all, the failed or the errored ones.
 * Its CSS and script are inline and it names no URL; a Content-Security-Policy forbids loading
 * anything. Every text from the dataset, the outputs and the checks is escaped: it is hostile input.
 */
import { caseReason, excerpt, expectedText, firstFailedCheck, inputExcerpt, telling } from './case-reasons'
import { summarizeCases } from './outcomes'
import type { DatasetReport } from './report'
import type { DatasetCase } from './schema'
import { round4 } from './stats'
import { recordedOutputsNote } from './recorded-outputs-note'
import { reportWarningLine } from './report-warnings'
import { calibrationText, kappaSaid, kappaUncertainty } from './kappa-interval'

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\'': '&#39;' }

/** Text safe in element content and in a quoted attribute. */
export function htmlText(value: string | number): string {
  return String(value).replace(/[&<>"']/g, ch => HTML_ENTITIES[ch]!)
}

const CSS = `body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1b1f24}
h1{font-size:20px}h2{font-size:16px;margin-top:24px}
.warning{border-left:4px solid #bf8700;background:#fff8c5;padding:6px 10px}
table{border-collapse:collapse;width:100%}caption{text-align:left;font-weight:600;padding:4px 0}
.confusion,.reliability{width:auto}.confusion caption,.reliability caption{white-space:nowrap}ul.measures{padding-left:20px}th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa}td.num{text-align:right;white-space:nowrap}
.figures{width:auto}.passed{color:#1a7f37}.failed{color:#cf222e}.errored{color:#9a6700}.uncertain{color:#9a6700;background:#fff8c5}
pre{margin:0;white-space:pre-wrap;word-break:break-word;font:12px/1.3 ui-monospace,monospace;max-width:48ch}
.filters button{margin-right:6px;padding:4px 10px;border:1px solid #d0d7de;background:#fff;border-radius:4px;cursor:pointer}
.filters button[aria-pressed=true]{background:#0969da;color:#fff;border-color:#0969da}`

// Shows the rows whose outcome the pressed button names; no data of the report is in it.
const SCRIPT = `document.querySelectorAll('.filters button').forEach(function(b){b.addEventListener('click',function(){
var f=b.getAttribute('data-filter');document.querySelectorAll('.filters button').forEach(function(o){o.setAttribute('aria-pressed',String(o===b))});
document.querySelectorAll('#cases tbody tr').forEach(function(r){r.hidden=f!=='all'&&r.getAttribute('data-outcome')!==f})})})`

/** What the file may load and run: its own inline CSS and script, nothing else (also sent as a header when served). */
export const HTML_REPORT_POLICY = 'default-src \'none\'; style-src \'unsafe-inline\'; script-src \'unsafe-inline\''
const num = (x: number | null) => (x === null ? '—' : String(x))
const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)} %`)

/** `cases`: the dataset's cases, whose inputs and expected answers the case table shows (the report holds neither). */
export function datasetReportToHtml(report: DatasetReport, cases?: readonly DatasetCase[]): string {
  const title = `Dataset ${report.dataset.name} (version ${report.dataset.version})`
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${HTML_REPORT_POLICY}">`,
    `<title>${htmlText(title)}</title><style>${CSS}</style></head><body>`,
    `<h1>${htmlText(title)}</h1>`,
    ...(report.recorded_outputs ? [`<p class="recorded">${htmlText(recordedOutputsNote(report.recorded_outputs))}</p>`] : []),
    ...(report.warnings ?? []).map(w => `<p class="warning" role="note">${htmlText(reportWarningLine(w, report.results.length))}</p>`),
    figures(report),
    gates(report),
    agreement(report),
    caseTable(report, cases),
    `<script>${SCRIPT}</script>`,
    '</body></html>',
    '',
  ].join('\n')
}

function figures(report: DatasetReport): string {
  const a = report.agreement
  const c = report.calibration
  // A κ that cannot tell is said so and marked (kappa-interval.ts), never shown like a tight one.
  const kappaRows: Array<[string, string, string?]> = [
    ...(a?.labelled ? [['judge agreement with people', `${kappaSaid(a)}, ${a.labelled} labelled`, kappaUncertainty(a) ? 'uncertain' : undefined]] as Array<[string, string, string?]> : []),
    ...(c ? [['calibration against people', `${calibrationText(c)}${kappaUncertainty(c) ? ` — ${kappaUncertainty(c)}` : ''}`, kappaUncertainty(c) ? 'uncertain' : undefined]] as Array<[string, string, string?]> : []),
  ]
  const rows: Array<[string, string, string?]> = [
    ['cases', String(report.cases)],
    ['passed', String(report.passed)],
    ['failed', String(report.failed)],
    ['errored (not in the pass rate)', String(report.errored)],
    ['pass rate', `${pct(report.pass_rate)}${report.pass_rate_ci ? ` (95 % CI ${pct(report.pass_rate_ci[0])}–${pct(report.pass_rate_ci[1])})` : ''}`],
    ['mean score', num(report.mean_score)],
    ['flaky cases', String(report.flaky.length)],
    ...(report.pass_all_repeats === undefined
      ? []
      : [['pass^N (every repeat passed)', pct(report.pass_all_repeats)], ['pass@N (a repeat passed)', pct(report.pass_any_repeat ?? null)]] as Array<[string, string]>),
    ['latency p50 / p95', `${num(report.latency_ms.p50)} ms / ${num(report.latency_ms.p95)} ms`],
    ['tokens in / out', `${report.tokens.input} / ${report.tokens.output}`],
    ...(report.cost_usd === undefined ? [] : [['cost (USD)', report.cost_usd === null ? 'not known' : String(report.cost_usd)]] as Array<[string, string]>),
    ...(report.not_run?.length ? [['not run', String(report.not_run.length)]] as Array<[string, string]> : []),
    ...kappaRows,
  ]
  return `<table class="figures">${rows.map(([k, v, mark]) => `<tr><th>${htmlText(k)}</th><td class="num${mark ? ` ${mark}` : ''}">${htmlText(v)}</td></tr>`).join('')}</table>`
}

function gates(report: DatasetReport): string {
  if (!report.gates.length) return ''
  const rows = report.gates.map(g => `<tr><td>${htmlText(g.gate)}</td><td class="num">${htmlText(g.required)}</td><td class="num">${htmlText(num(g.actual))}</td>`
    + `<td class="${g.passed ? 'passed' : 'failed'}">${g.passed ? 'passed' : 'failed'}</td></tr>`)
  return `<h2>Gates</h2><table><thead><tr><th>gate</th><th>required</th><th>actual</th><th></th></tr></thead><tbody>${rows.join('')}</tbody></table>`
}

/**
 * What the report page's agreement panel shows: κ and the measures beside it, the confusion matrix,
 * the recommended threshold; a panel's agreement between its judges.
 */
function agreement(report: DatasetReport): string {
  const a = report.agreement
  if (!a) return ''
  const judges = a.judges
    ? '<section aria-labelledby="judges-title"><h2 id="judges-title">Agreement between judges</h2>'
    + `<p>${htmlText(a.judges.models.join(', '))} over ${a.judges.runs} runs: Fleiss' κ ${htmlText(num(a.judges_kappa ?? null))}, pairs agreeing ${pct(a.judges.pair_agreement)}</p></section>`
    : ''
  if (!a.labelled) return judges
  const c = a.confusion
  const uncertain = kappaUncertainty(a)
  const best = a.threshold_sweep.find(s => s.threshold === a.recommended_threshold)
  const measures = [
    `accuracy ${num(a.accuracy)} (always answering the majority verdict: ${num(a.baseline_accuracy)})`,
    `Cohen's κ ${num(a.kappa)}${a.kappa_ci ? ` (95 % CI ${a.kappa_ci[0]}–${a.kappa_ci[1]})` : ''}${uncertain ? ` — ${uncertain}` : ''}`,
    `fail precision ${num(a.fail_precision)}, fail recall ${num(a.fail_recall)}`,
    `Spearman's ρ (judged vs expected score) ${num(a.spearman)}`,
    ...(a.recommended_threshold === null ? [] : [`recommended pass threshold ${a.recommended_threshold} (κ ${num(best?.kappa ?? null)})`]),
  ]
  const reliability = a.reliability.length
    ? '<table class="reliability"><caption>Accuracy by the judge\'s confidence</caption><thead><tr><th>confidence</th><th>cases</th><th>accuracy</th></tr></thead><tbody>'
    + a.reliability.map(b => `<tr><td>[${b.confidence[0]}, ${b.confidence[1]}${b.confidence[1] === 1 ? ']' : ')'}</td><td class="num">${b.cases}</td><td class="num">${num(b.accuracy)}</td></tr>`).join('')
    + '</tbody></table>'
    : ''
  return [
    `<section aria-labelledby="agreement-title"><h2 id="agreement-title">Agreement with people (${a.labelled} labelled cases)</h2>`,
    '<table class="confusion"><caption>Confusion matrix: expected verdict by judged verdict</caption>',
    '<thead><tr><td></td><th scope="col">judged pass</th><th scope="col">judged fail</th></tr></thead>',
    `<tbody><tr><th scope="row">expected pass</th><td class="num">${c.pass_pass}</td><td class="num">${c.pass_fail}</td></tr>`,
    `<tr><th scope="row">expected fail</th><td class="num">${c.fail_pass}</td><td class="num">${c.fail_fail}</td></tr></tbody></table>`,
    `<ul class="measures">${measures.map((m, i) => `<li${i === 1 && uncertain ? ' class="uncertain"' : ''}>${htmlText(m)}</li>`).join('')}</ul>`,
    reliability,
    '</section>',
    judges,
  ].join('\n')
}

function caseTable(report: DatasetReport, items?: readonly DatasetCase[]): string {
  const byId = new Map((items ?? []).map(c => [c.id, c]))
  const summaries = [...summarizeCases(report.results)]
  const count = (outcome: string) => summaries.filter(([, s]) => s.outcome === outcome).length
  const rows = summaries.map(([id, s]) => {
    const run = telling(s)
    const check = firstFailedCheck(run)
    const verdict = s.outcome === 'errored' ? 'errored' : s.outcome === 'failed' ? 'fail' : 'pass'
    const item = byId.get(id)
    return `<tr data-outcome="${s.outcome}"><td>${htmlText(id)}</td><td><pre>${htmlText(inputExcerpt(item))}</pre></td><td>${htmlText(expectedText(item))}</td>`
      + `<td class="${s.outcome}">${verdict}</td>`
      + `<td class="num">${s.score === null ? '—' : round4(s.score)}</td>`
      + `<td>${check ? htmlText(check.name) : ''}</td><td><pre>${htmlText(caseReason(s))}</pre></td>`
      + `<td><pre>${run.output === null ? '' : htmlText(excerpt(run.output))}</pre></td></tr>`
  })
  const button = (filter: string, label: string, pressed = false) => `<button type="button" data-filter="${filter}" aria-pressed="${pressed}">${label}</button>`
  return [
    '<h2 id="cases-title">Cases</h2>',
    `<p class="filters">${button('all', `all (${summaries.length})`, true)}${button('failed', `failed (${count('failed')})`)}${button('errored', `errored (${count('errored')})`)}</p>`,
    '<table id="cases" aria-labelledby="cases-title"><thead><tr><th>case</th><th>input</th><th>expected</th><th>judged</th><th>score</th><th>first failed check</th><th>reason</th><th>output</th></tr></thead>',
    `<tbody>${rows.join('\n')}</tbody></table>`,
  ].join('\n')
}
