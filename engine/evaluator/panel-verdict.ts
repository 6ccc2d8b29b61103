/**
 * What a judge panel's verdict rests on, said in words, and the words the panel gives with it.
 *
 * The rule: `majority` passes when more than half the judges pass (a tie fails), whatever the
 * mean score; `mean` passes when the judges' mean score reaches the threshold, whatever the
 * count. When the other figure points the other way ("2 of 3 judges passed" under a mean of 0.63
 * of 0.70) the sentence says so with "though", so a verdict beside a score under its threshold
 * is never left to the reader to explain.
 *
 * The feedback: the words of one judge that voted with the verdict (panel.ts picks it), unless
 * the judges' mean scores a criterion under the threshold that this judge itself scored at or
 * above it — its words could then praise what the scores beside them call weak ("scores well on
 * every criterion" beside a 0.56). The weakest criteria of the mean are named instead.
 */
import type { PanelAggregate } from '../schema/evaluator'

const EPSILON = 1e-9
/** How many weak criteria the feedback names. */
const NAMED_WEAK = 3

/** Two decimals, or three where two would show a score and its threshold as equal when they are not. */
function shownPair(score: number, threshold: number): [string, string] {
  const two = [score.toFixed(2), threshold.toFixed(2)] as [string, string]
  return two[0] === two[1] && Math.abs(score - threshold) > EPSILON ? [score.toFixed(3), threshold.toFixed(3)] : two
}

export interface PanelVote {
  aggregate: PanelAggregate
  /** Each judge's verdict. */
  verdicts: readonly boolean[]
  /** The score the rule speaks of: the judges' mean (a comparison's: its winner's). */
  score: number
  threshold: number
  /** The panel's verdict. */
  passed: boolean
  /** What `score` is, in words; "the mean score" unless given. */
  scoreName?: string
}

/**
 * The panel's verdict and the rule that decided it, in one sentence: "passed: 2 of 3 judges passed
 * (majority), though the mean score 0.63 is under 0.70".
 */
export function panelVerdictRule(vote: PanelVote): string {
  const { aggregate, verdicts, score, threshold, passed } = vote
  const yes = verdicts.filter(Boolean).length
  const counted = `${yes} of ${verdicts.length} judges passed`
  const reaches = score >= threshold - EPSILON
  const [s, t] = shownPair(score, threshold)
  const scored = `${vote.scoreName ?? 'the mean score'} ${s} ${reaches ? 'reaches' : 'is under'} ${t}`
  const verdict = passed ? 'passed' : 'failed'
  // The figure the rule did not use follows: plainly when it points the same way, with "though" when not.
  const then = (other: string, agrees: boolean) => (agrees ? `; ${other}` : `, though ${other}`)
  if (aggregate === 'mean') return `${verdict}: ${scored} (mean)${then(counted, (yes * 2 > verdicts.length) === passed)}`
  const how = passed ? '(majority)' : yes * 2 === verdicts.length ? 'a tie (majority: a tie fails)' : 'not more than half (majority)'
  return `${verdict}: ${counted}${passed ? ' ' : ', '}${how}${then(scored, reaches === passed)}`
}

/**
 * The panel's feedback: `voice`'s words, unless the panel's `criteria` (the judges' means) hold
 * one under the threshold that the voice scored at or above it; then the weakest of them are named
 * ("The weakest criterion across the judges is accuracy (0.56), under the 0.70 threshold.").
 */
export function panelFeedback(
  voice: { feedback: string, criteria_scores: Record<string, number> },
  criteria: Record<string, number>,
  threshold: number,
): string {
  const weak = Object.entries(criteria)
    .filter(([, score]) => score < threshold - EPSILON)
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
  if (!weak.length) return voice.feedback
  const [weakest] = weak[0]!
  const voiceSawIt = (voice.criteria_scores[weakest] ?? 1) < threshold - EPSILON
  if (voiceSawIt) return voice.feedback
  const named = weak.slice(0, NAMED_WEAK).map(([name, score]) => `${name} (${shownPair(score, threshold)[0]})`)
  const t = threshold.toFixed(2)
  return weak.length === 1
    ? `The weakest criterion across the judges is ${named[0]}, under the ${t} threshold.`
    : `The weakest criteria across the judges, under the ${t} threshold: ${named.join(', ')}${weak.length > NAMED_WEAK ? ` and ${weak.length - NAMED_WEAK} more` : ''}.`
}
