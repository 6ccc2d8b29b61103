import type { ExperimentReport } from './recommend'

const STABILITY = { high: 'high', medium: 'medium', low: 'low' } as const
const num = (x: number | null) => (x === null ? '—' : String(x))

/** The report as Markdown: the recommendation in words first, then the tables behind it. */
export function reportToMarkdown(report: ExperimentReport): string {
  const ids = Object.keys(report.variants)
  const categories = [...new Set(ids.flatMap(id => Object.keys(report.variants[id]!.category_rates)))]
  const documents = [...new Set(ids.flatMap(id => Object.keys(report.variants[id]!.doc_means)))]
  const row = (cells: Array<string | number | null>) => `| ${cells.map(c => (typeof c === 'number' || c === null ? num(c) : c)).join(' | ')} |`
  const lines = [
    `# ${report.experiment}: round ${report.round}`,
    '',
    `**Recommendation: ${report.recommendation.changes_best ? `adopt ${report.recommendation.adopt}` : `keep the current best (${report.current_best})`}.**`,
    '',
    ...report.recommendation.reasons.map(r => `- ${r}`),
    '',
    '## Scores',
    '',
    row(['variant', 'mean', 'SD (n − 1)', 'stability', ...documents.map(d => `mean ${d}`), 'cross-doc gap', 'balance']),
    row(['---', '---:', '---:', '---', ...documents.map(() => '---:'), '---:', '---:']),
    ...ids.map((id) => {
      const v = report.variants[id]!
      return row([id === report.current_best ? `${id} (current best)` : id, v.overall_mean, v.overall_sd, STABILITY[v.stability], ...documents.map(d => v.doc_means[d] ?? null), v.cross_doc_gap, v.balance])
    }),
    '',
    '## Category detection rates',
    '',
    row(['category', ...ids]),
    row(['---', ...ids.map(() => '---:')]),
    ...categories.map(c => row([c, ...ids.map((id) => {
      const rate = report.variants[id]!.category_rates[c] ?? null
      const regressed = report.comparisons.find(x => x.variant === id)?.regressions.some(r => r.category === c)
      return regressed ? `**${num(rate)}** (regression)` : num(rate)
    })])),
    '',
    '## Against the current best',
    '',
    row(['variant', 'raw mean diff', 'regressions', 'adjusted diff', 'decision']),
    row(['---', '---:', '---', '---:', '---']),
    ...report.comparisons.map(c => row([c.variant, c.raw_mean_diff, c.regressions.map(r => `${r.category} −${r.drop}`).join(', ') || 'none', c.adjusted_diff, c.decision === 'variant' ? 'adopt' : 'keep current best'])),
    '',
    `Convergence: ${report.convergence.state === 'may_have_converged' ? 'may have converged (three rounds in a row improved by less than 0.5)' : 'continue'} — improvements by round: ${report.convergence.improvements.join(', ')}.`,
    '',
    ...report.notes.map(n => `_${n}_`),
    '',
  ]
  return lines.join('\n')
}
