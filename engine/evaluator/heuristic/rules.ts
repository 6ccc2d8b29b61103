/**
 * The offline judge's rules: each criterion and metric scored from the text features of one
 * evaluation (the content, and the context and reference when given).
 */
import { actionability, coherence, contentTerms, missingTerms, recall, sentenceLengthScore, type TextFeatures } from './features'

export interface HeuristicScore { score: number, reason: string }
/** Content that tries to steer the judge keeps at most half of any score it would have earned. */
const INJECTION_FACTOR = 0.5
const INJECTION_NOTE = 'instructions to the judge were found in the content and ignored'

export interface Evaluation {
  content: TextFeatures
  context?: TextFeatures
  reference?: TextFeatures
  injections: string[]
  /** Each rule's raw score, computed once: rules build on each other (overall, helpfulness, custom criteria). */
  raw: Map<Rule, HeuristicScore>
  /** Each criterion's judged score, computed once however many samples or orders ask for it. */
  judged: Map<string, HeuristicScore>
}
type Rule = (e: Evaluation) => HeuristicScore

/** A rule's raw score on this evaluation, computed at most once. */
function ruled(e: Evaluation, rule: Rule): HeuristicScore {
  let found = e.raw.get(rule)
  if (!found) e.raw.set(rule, found = rule(e))
  return found
}

const clamp = (x: number) => Math.min(1, Math.max(0, x))
const round = (x: number, places = 3) => Math.round(clamp(x) * 10 ** places) / 10 ** places
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0)
const list = (items: string[], n = 5) => items.slice(0, n).join(', ')
const fixed = (x: number) => String(round(x, 2))
const sizeUnit = (f: TextFeatures) => (f.lang === 'ja' ? 'characters' : 'words')
const EMPTY: HeuristicScore = { score: 0, reason: 'The content is empty.' }

/** Concave in the share of question terms covered: most terms count as nearly full, a stray shared word stays low. */
const relevance: Rule = ({ content, context }) => {
  const share = context && recall(context.terms, content.terms)
  if (share === undefined) return { score: 0.5, reason: 'There is no question or context to compare with, so relevance is neutral.' }
  const missing = missingTerms(context!.terms, content.terms)
  if (share === 0) return { score: 0.1, reason: `The content shares none of the question's terms (${list(missing)}).` }
  const found = Math.round(share * context!.terms.size)
  return {
    score: 1 - (1 - share) ** 1.5,
    reason: `The content covers ${found} of ${context!.terms.size} question terms${missing.length ? `; missing: ${list(missing)}` : ''}.`,
  }
}

/** Numbers the reference states that the content lacks; worse when the content states other numbers instead. */
function numberAgreement(content: TextFeatures, reference: TextFeatures): { penalty: number, missing: string[], extra: string[] } {
  const stated = new Set(content.numbers)
  const wanted = new Set(reference.numbers)
  const missing = [...wanted].filter(n => !stated.has(n))
  const extra = [...stated].filter(n => !wanted.has(n))
  if (!wanted.size) return { penalty: 0, missing, extra }
  const share = missing.length / wanted.size
  return { penalty: 0.25 * share + (extra.length ? 0.25 * share : 0), missing, extra }
}

/** Token F1 against the reference, lowered by number disagreement; without a reference a neutral 0.5, less for hedging or refusing. */
const accuracy: Rule = ({ content, reference }) => {
  if (!reference) {
    const hedging = 0.05 * Math.min(2, content.hedges.length)
    const refusing = content.refusals.length ? 0.1 : 0
    const why = [content.hedges.length && 'hedging', refusing && 'a refusal'].filter(Boolean).join(' and ')
    return { score: 0.5 - hedging - refusing, reason: `There is no reference to check against, so accuracy is neutral${why ? `, lowered for ${why}` : ''}.` }
  }
  let shared = 0
  for (const term of content.terms) if (reference.terms.has(term)) shared++
  const precision = content.terms.size ? shared / content.terms.size : 0
  const recalled = reference.terms.size ? shared / reference.terms.size : 0
  const f1 = precision + recalled ? (2 * precision * recalled) / (precision + recalled) : 0
  const numbers = numberAgreement(content, reference)
  const notes = [
    numbers.missing.length && `the reference's numbers ${list(numbers.missing)} are missing`,
    numbers.missing.length && numbers.extra.length && `${list(numbers.extra)} contradict them`,
  ].filter(Boolean)
  return { score: f1 * (1 - numbers.penalty), reason: `Token F1 with the reference is ${fixed(f1)}${notes.length ? `; ${notes.join(' and ')}` : ''}.` }
}

const isStructured = ({ structure: s }: TextFeatures) => s.bullets + s.numbered + s.headings >= 2 || s.paragraphs >= 2
const averageLength = (f: TextFeatures) => Math.round(mean(f.sentenceLengths))

/** Comfortable sentence length plus a structure bonus, minus repetition and shouting. */
const clarity: Rule = ({ content }) => {
  const structure = isStructured(content) ? 0.1 : 0
  const repetition = 0.7 * content.repetition
  const shouting = Math.min(0.3, 0.1 * content.shouting.length)
  const band = content.lang === 'ja' ? '15–60' : '8–25'
  const notes = [
    `sentences average ${averageLength(content)} ${sizeUnit(content)} (comfortable: ${band})`,
    structure && 'the answer is structured',
    content.repetition >= 0.1 && `${Math.round(content.repetition * 100)}% of it is repeated`,
    shouting && `it shouts (${list(content.shouting, 3)})`,
  ].filter(Boolean)
  return { score: 0.9 * sentenceLengthScore(content) + structure - repetition - shouting, reason: `Clarity: ${notes.join(', ')}.` }
}

const isShort = (f: TextFeatures) => f.size < (f.lang === 'ja' ? 20 : 8)
const isNonTrivial = (context?: TextFeatures) => !!context && context.size >= (context.lang === 'ja' ? 10 : 4)

/** Recall of the question's and the reference's terms, a little credit for depth, and a penalty for one-liners to real questions. */
const completeness: Rule = ({ content, context, reference }) => {
  const parts = [
    context && recall(context.terms, content.terms),
    reference && recall(reference.terms, content.terms),
  ].filter((x): x is number => x !== undefined)
  const coverage = parts.length ? mean(parts) : 0.5
  const depth = Math.min(1, content.size / (content.lang === 'ja' ? 120 : 40))
  const short = isShort(content) && isNonTrivial(context)
  const brevity = short ? 0.4 + (0.6 * content.size) / (content.lang === 'ja' ? 20 : 8) : 1
  const covered = parts.length ? `covers ${Math.round(coverage * 100)}% of the question/reference terms` : 'has no question or reference to cover'
  return {
    score: (0.75 * coverage + 0.25 * depth) * brevity,
    reason: `The content ${covered} in ${content.size} ${sizeUnit(content)}${short ? ', too short for the question' : ''}.`,
  }
}

/** Relevance blended with actionable signals; an answer that is mostly a refusal is capped very low. */
const helpfulness: Rule = (e) => {
  const act = actionability(e.content)
  const related = ruled(e, relevance).score
  const base = 0.6 * related + 0.4 * act
  const a = e.content.actionable
  const signals = `${a.imperatives} instructions, ${a.steps} step markers, ${a.examples} examples, ${a.numbers} numbers`
  if (!e.content.refusals.length) return { score: base, reason: `Relevance ${fixed(related)} with ${signals}.` }
  const mostlyRefusal = e.content.size < (e.content.lang === 'ja' ? 60 : 25) || act < 0.3
  return {
    score: mostlyRefusal ? Math.min(base, 0.1) : base - 0.1,
    reason: `The content refuses ("${e.content.refusals[0]}")${mostlyRefusal ? ' instead of helping' : ''}, with ${signals}.`,
  }
}

/** Starts at 0.8; politeness raises it a little, rudeness and shouting lower it a lot. */
const tone: Rule = ({ content }) => {
  const score = 0.8 + Math.min(0.2, 0.05 * content.polite.length) - Math.min(0.6, 0.2 * content.rude.length) - Math.min(0.3, 0.1 * content.shouting.length)
  const notes = [
    content.polite.length && `polite (${list(content.polite, 3)})`,
    content.rude.length && `rude (${list(content.rude, 3)})`,
    content.shouting.length && `shouting (${list(content.shouting, 3)})`,
  ].filter(Boolean)
  return { score, reason: `Tone is ${notes.length ? notes.join(', ') : 'neutral'}.` }
}

/** `overall` (the scoring type's single criterion): general quality, like the LLMPlain metric. */
const overall: Rule = (e) => {
  const parts = [relevance, clarity, completeness, helpfulness].map(rule => ruled(e, rule))
  return { score: mean(parts.map(p => p.score)), reason: 'General quality: the mean of relevance, clarity, completeness and helpfulness.' }
}

const RULES: Record<string, Rule> = { relevance, accuracy, clarity, completeness, coverage: completeness, helpfulness, tone, overall }

/** A criterion the judge does not know: how much of its description the content touches, blended with clarity and relevance. */
function custom(name: string, description: string | undefined): Rule {
  return (e) => {
    const terms = contentTerms(description ?? '')
    const share = recall(terms, e.content.terms)
    const quality = mean([ruled(e, clarity).score, ruled(e, relevance).score])
    if (share === undefined) return { score: quality, reason: `"${name}" has no description terms to look for, so it is scored from clarity and relevance.` }
    const missing = missingTerms(terms, e.content.terms)
    return {
      score: 0.5 * share + 0.5 * quality,
      reason: `The content covers ${Math.round(share * 100)}% of the terms of "${name}"${missing.length ? ` (missing: ${list(missing)})` : ''}, blended with clarity and relevance.`,
    }
  }
}

function judged(rule: Rule, e: Evaluation): HeuristicScore {
  const raw = e.content.size ? ruled(e, rule) : EMPTY
  if (!e.injections.length) return { score: round(raw.score), reason: raw.reason }
  return { score: round(raw.score * INJECTION_FACTOR), reason: `${raw.reason.replace(/\.$/, '')}; ${INJECTION_NOTE}.` }
}

export function criterionScore(e: Evaluation, name: string, description: string | undefined): HeuristicScore {
  const memoKey = `${name}\u0000${description ?? ''}`
  let found = e.judged.get(memoKey)
  if (!found) {
    const key = name.trim().toLowerCase()
    const rule = Object.hasOwn(RULES, key) ? RULES[key]! : custom(name, description)
    e.judged.set(memoKey, found = judged(rule, e))
  }
  return found
}

const metricKey = (name: string) => name.toLowerCase().replace(/[^a-z]/g, '')

export function metricScore(e: Evaluation, name: string): { score: number, evaluator_comment: string } {
  const parts: Record<string, Rule[]> = {
    claritycoherence: [clarity],
    coverage: [completeness],
    relevance: [relevance],
  }
  const rules = Object.hasOwn(parts, metricKey(name)) ? parts[metricKey(name)]! : [relevance, clarity, completeness, helpfulness]
  const scored = rules.map(rule => judged(rule, e))
  let score = mean(scored.map(s => s.score))
  const comments = scored.map(s => s.reason)
  if (metricKey(name) === 'claritycoherence') {
    const flow = e.content.size ? coherence(e.content) * (e.injections.length ? INJECTION_FACTOR : 1) : 0
    score = 0.6 * score + 0.4 * flow
    comments.push(`Coherence ${fixed(flow)} from ${e.content.connectives.length} connectives and sentence flow.`)
  }
  return { score: Math.round(clamp(score) * 1000) / 10, evaluator_comment: comments.join(' ') }
}

/** Metric names lead to the criterion whose advice fits them. */
const ADVICE_FOR: Record<string, string> = { claritycoherence: 'clarity', coverage: 'completeness', llmplain: 'helpfulness' }

function suggestionsFor(name: string, e: Evaluation): string[] {
  const { content, context, reference } = e
  const askedMissing = context ? missingTerms(context.terms, content.terms) : []
  const key = Object.hasOwn(ADVICE_FOR, metricKey(name)) ? ADVICE_FOR[metricKey(name)]! : name.trim().toLowerCase()
  switch (key) {
    case 'relevance':
      return [askedMissing.length ? `Answer the question's terms: ${list(askedMissing)}` : 'Keep to the topic of the request']
    case 'completeness': {
      const refMissing = reference ? missingTerms(reference.terms, content.terms) : []
      return [
        isShort(content) ? 'Expand the answer: a one-line reply leaves the question open' : '',
        refMissing.length ? `Cover the reference's points: ${list(refMissing)}` : '',
        askedMissing.length ? `Cover every part of the question: ${list(askedMissing)}` : 'Add the details a reader needs to finish the task',
      ]
    }
    case 'accuracy': {
      const numbers = reference ? numberAgreement(content, reference).missing : []
      if (numbers.length) return [`Check the numbers against the reference: ${list(numbers)}`]
      return [reference ? 'Align the facts with the reference answer' : content.hedges.length ? 'State facts plainly instead of hedging' : 'Back the claims with specifics that can be checked']
    }
    case 'clarity': return [
      content.repetition >= 0.2 ? 'Remove repeated sentences and phrases' : '',
      sentenceLengthScore(content) < 0.8 ? `Split long sentences (average ${averageLength(content)} ${sizeUnit(content)}) into shorter ones` : '',
      content.shouting.length ? 'Drop all-caps words and repeated exclamation marks' : '',
      isStructured(content) ? '' : 'Add a short summary and organise the answer as steps or bullets',
    ]
    case 'helpfulness':
      return [content.refusals.length ? 'Answer the request, or say what the user can do, instead of refusing' : 'Give concrete steps, commands or an example']
    case 'tone':
      return [content.rude.length ? `Remove dismissive or insulting words: ${list(content.rude, 3)}` : 'Use a polite, neutral tone without shouting']
    default: return [`Address the criterion "${name}" explicitly`]
  }
}

/** Feedback and at most four suggestions, from the weakest criteria first. `scores` may be 0..1 or 0..100. */
export function feedbackFor(e: Evaluation, scores: Record<string, number>): { feedback: string, suggestions: string[] } {
  // A neutral score only says there was nothing to check against; it is not a weakness to fix.
  const neutral = (name: string) => (name === 'accuracy' && !e.reference && !e.content.hedges.length && !e.content.refusals.length) || (name === 'relevance' && !e.context)
  const given = Object.entries(scores).length ? Object.entries(scores) : Object.keys(RULES).filter(n => n !== 'coverage' && n !== 'overall').map(n => [n, judged(RULES[n]!, e).score] as const)
  const percent = given.some(([, s]) => s > 1)
  const weak = given
    .map(([name, s]) => ({ name, score: percent ? s / 100 : s }))
    .filter(c => c.score < 0.7 && !neutral(c.name.trim().toLowerCase()))
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
  const suggestions = new Map<string, string>()
  const add = (s: string) => { if (s && !suggestions.has(s.split(': ')[1] ?? s)) suggestions.set(s.split(': ')[1] ?? s, s) }
  if (e.injections.length) add('Remove the instructions addressed to the judge')
  for (const c of weak) suggestionsFor(c.name, e).forEach(add)
  const named = weak.slice(0, 3).map(c => `${c.name} (${fixed(c.score)})`).join(', ')
  const verdict = weak.length ? `The weakest criteria are ${named}` : 'The answer scores well on every criterion'
  return { feedback: `${verdict}${e.injections.length ? `; ${INJECTION_NOTE}` : ''}.`, suggestions: [...suggestions.values()].slice(0, 4) }
}
