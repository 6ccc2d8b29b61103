import { fMeasure, l as rougeL, nGram, s as rougeS, treeBankTokenize } from 'js-rouge'
import type { AssertionHandler } from './types'

/** Word-overlap scores against reference texts: ROUGE (n, l, s) and BLEU, passing at a threshold. */

function counts(grams: readonly string[]): Map<string, number> {
  const map = new Map<string, number>()
  for (const gram of grams) map.set(gram, (map.get(gram) ?? 0) + 1)
  return map
}

/** ROUGE-N's F-score with clipped counts: a text scored against itself is 1 even with repeated words. */
export function rougeN(candidate: string, reference: string, n = 1): number {
  const a = treeBankTokenize(candidate)
  const b = treeBankTokenize(reference)
  if (a.length < n || b.length < n) return 0
  const ours = nGram(a, n)
  const theirs = counts(nGram(b, n))
  let overlap = 0
  for (const [gram, count] of counts(ours)) overlap += Math.min(count, theirs.get(gram) ?? 0)
  if (!overlap) return 0
  return fMeasure(overlap / ours.length, overlap / nGram(b, n).length, 1)
}

const words = (text: string) => text.toLowerCase().trim().split(/\s+/)

function grams(list: readonly string[], n: number): string[] {
  const out: string[] = []
  for (let i = 0; i + n <= list.length; i++) out.push(list.slice(i, i + n).join(' '))
  return out
}

/** BLEU-4 with equal weights, clipped counts against the best reference, the brevity penalty of the closest reference length. */
export function bleu(candidate: string, references: readonly string[]): number {
  if (candidate.trim() === '') return 0
  const ours = words(candidate)
  const refs = references.map(words)
  const closest = refs.map(r => r.length).reduce((best, len) => {
    const d = Math.abs(len - ours.length)
    const bd = Math.abs(best - ours.length)
    return d < bd || (d === bd && len < best) ? len : best
  })
  const orders: number[] = []
  for (let n = 1; n <= 4; n++) {
    const mine = grams(ours, n)
    if (!mine.length) continue
    const mineCounts = counts(mine)
    let best = 0
    for (const ref of refs) {
      const theirs = counts(grams(ref, n))
      let clipped = 0
      for (const [gram, count] of mineCounts) clipped += Math.min(count, theirs.get(gram) ?? 0)
      best = Math.max(best, clipped)
    }
    orders.push(best / mine.length)
  }
  if (!orders.length) return 0
  const penalty = ours.length > closest ? 1 : Math.exp(1 - closest / ours.length)
  const logMean = orders.reduce((sum, p) => sum + Math.log(p === 0 ? 1e-7 : p) / orders.length, 0)
  return penalty * Math.exp(logMean)
}

function rouge(type: 'rouge-n' | 'rouge-l' | 'rouge-s'): AssertionHandler {
  return {
    type,
    label: type,
    description: `The ${type.toUpperCase()} score against the value (lower-cased) reaches \`threshold\` (default 0.75).`,
    negatable: true,
    check: a => (typeof a.value === 'string' ? undefined : 'must have a text value'),
    handle: ({ assertion, text, inverse }) => {
      const candidate = text.toLowerCase()
      const reference = String(assertion.value).toLowerCase()
      const score = type === 'rouge-n' ? rougeN(candidate, reference) : type === 'rouge-l' ? rougeL(candidate, reference, {}) : rougeS(candidate, reference, {})
      const threshold = assertion.threshold ?? 0.75
      return {
        pass: (score >= threshold) !== inverse,
        score: inverse ? 1 - score : score,
        reason: `${type.toUpperCase()} score ${score.toFixed(2)} is ${score >= threshold ? 'greater than or equal to' : 'less than'} threshold ${threshold}`,
      }
    },
  }
}

export const overlapHandlers: AssertionHandler[] = [
  rouge('rouge-n'),
  rouge('rouge-l'),
  rouge('rouge-s'),
  {
    type: 'bleu', label: 'bleu', description: 'The BLEU-4 score against the reference text(s) reaches `threshold` (default 0.5).', negatable: true,
    check: a => (typeof a.value === 'string' || (Array.isArray(a.value) && a.value.length > 0 && a.value.every(v => typeof v === 'string')) ? undefined : 'must have a text or a list of texts as its value'),
    handle: ({ assertion, text, inverse }) => {
      const threshold = assertion.threshold ?? 0.5
      const score = bleu(text, Array.isArray(assertion.value) ? assertion.value as string[] : [String(assertion.value)])
      const pass = (score >= threshold) !== inverse
      return { pass, score: inverse ? 1 - score : score, reason: pass ? 'Assertion passed' : `BLEU score ${score.toFixed(4)} is ${inverse ? 'greater' : 'less'} than threshold ${threshold}` }
    },
  },
]
