import type { Judgment, TestDocument } from './schema'

/** One judged output of a round: the variant, the document and the run number. */
export interface JudgedRun {
  variant: string
  document: string
  run: number
}

export interface JudgmentProblem {
  /** The field, e.g. `judgments[2].problems.A9`. */
  path: string
  message: string
}

export interface RoundToCorrect {
  number: number
  /** Every output the round judged: its runs, and the current best's runs taken from history. */
  judged: readonly JudgedRun[]
  /** The variant the report compares the others with. */
  currentBest: string
  documents: readonly TestDocument[]
}

const MISSING_LISTED = 5
const keyOf = (j: JudgedRun) => JSON.stringify([j.variant, j.document, j.run])
const nameOf = (j: JudgedRun) => `variant "${j.variant}", document "${j.document}", run ${j.run}`
const listed = (items: readonly unknown[]) => items.map(String).join(', ')

/**
 * What is wrong with a person's corrected judgments of a round, which replace the stored ones:
 * each must be one of the round's judged outputs, once, with a mark for every problem of its
 * document's answer key and no other; and none of the round's outputs may be left out (the
 * report compares every variant with the current best, so its judgments are needed too).
 */
export function judgmentProblems(judgments: readonly Judgment[], round: RoundToCorrect): JudgmentProblem[] {
  const problems: JudgmentProblem[] = []
  const expected = new Map(round.judged.map(j => [keyOf(j), j]))
  const variants = [...new Set(round.judged.map(j => j.variant))]
  const seen = checkEach(judgments, round.documents, problems, {
    unknownDocument: id => `"${id}" is not one of the experiment's documents (${listed(round.documents.map(d => d.id))})`,
    notJudged: (judgment, at) => {
      if (!variants.includes(judgment.variant)) return { path: `${at}.variant`, message: `"${judgment.variant}" was not judged in round ${round.number} (variants: ${listed(variants)})` }
      if (expected.has(keyOf(judgment))) return undefined
      const runs = [...new Set(round.judged.filter(j => j.variant === judgment.variant && j.document === judgment.document).map(j => j.run))]
      return { path: `${at}.run`, message: `variant "${judgment.variant}" has no run ${judgment.run} of document "${judgment.document}" in round ${round.number} (runs: ${listed(runs) || 'none'})` }
    },
  })
  const missing = [...expected.entries()].filter(([key]) => !seen.has(key)).map(([, j]) => j)
  if (missing.length) {
    const more = missing.length > MISSING_LISTED ? `, and ${missing.length - MISSING_LISTED} more` : ''
    const best = missing.some(j => j.variant === round.currentBest) ? `; the report compares every variant with the current best "${round.currentBest}", so its judgments are needed too` : ''
    problems.push({ path: 'judgments', message: `${missing.length} of round ${round.number}'s ${expected.size} judgments ${missing.length > 1 ? 'are' : 'is'} missing (${missing.slice(0, MISSING_LISTED).map(nameOf).join('; ')}${more}): send every judgment of the round, corrected or not${best}` })
  }
  return problems
}

/**
 * What is wrong with the judgments of a judgments file (`judgeflow experiment report`, and every
 * round's report): each names one of the file's documents, judges an output (variant, document,
 * run) once, and marks every problem of its document's answer key and no other. A second judgment
 * of one output would be counted twice, and run_score sums a mark of every problem of the key, so
 * a missing mark has no score to stand for (counting it × would lower the run's score, leaving
 * it out would score the run on fewer problems than the others): each is refused, not guessed.
 */
export function judgmentsFileProblems(judgments: readonly Judgment[], documents: readonly TestDocument[]): JudgmentProblem[] {
  const problems: JudgmentProblem[] = []
  checkEach(judgments, documents, problems, { unknownDocument: id => `document "${id}" is not among the documents (${listed(documents.map(d => d.id))})` })
  return problems
}

interface EachCheck {
  unknownDocument: (id: string) => string
  /** Why the judgment is of no output to be judged, if it is not. */
  notJudged?: (judgment: Judgment, at: string) => JudgmentProblem | undefined
}

/** Checks each judgment's document, output, uniqueness and marks; returns the outputs judged once. */
function checkEach(judgments: readonly Judgment[], documents: readonly TestDocument[], problems: JudgmentProblem[], check: EachCheck): Map<string, number> {
  const seen = new Map<string, number>()
  judgments.forEach((judgment, i) => {
    const at = `judgments[${i}]`
    const document = documents.find(d => d.id === judgment.document)
    if (!document) {
      problems.push({ path: `${at}.document`, message: check.unknownDocument(judgment.document) })
      return
    }
    const notJudged = check.notJudged?.(judgment, at)
    if (notJudged) {
      problems.push(notJudged)
      return
    }
    const key = keyOf(judgment)
    if (seen.has(key)) {
      problems.push({ path: at, message: `${nameOf(judgment)} is judged twice (also judgments[${seen.get(key)}])` })
      return
    }
    seen.set(key, i)
    const ids = document.problems.map(p => p.id)
    for (const id of Object.keys(judgment.problems)) {
      if (!ids.includes(id)) problems.push({ path: `${at}.problems.${id}`, message: `"${id}" is not a problem of document "${document.id}" (${listed(ids)})` })
    }
    const unmarked = ids.filter(id => !Object.hasOwn(judgment.problems, id))
    if (unmarked.length) problems.push({ path: `${at}.problems`, message: `${nameOf(judgment)} has no mark for ${listed(unmarked)}: every problem of document "${document.id}" needs one` })
  })
  return seen
}
