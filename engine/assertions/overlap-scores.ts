import { fMeasure, l as rougeL, nGram, s as rougeS, treeBankTokenize } from 'js-rouge'

/** The word-overlap scores (ROUGE n, l, s and BLEU), loaded the first time an overlap assertion grades. */

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

/** The ROUGE score the assertion of this type gives the candidate against the reference. */
export function rougeScore(type: 'rouge-n' | 'rouge-l' | 'rouge-s', candidate: string, reference: string): number {
  return type === 'rouge-n' ? rougeN(candidate, reference) : type === 'rouge-l' ? rougeL(candidate, reference, {}) : rougeS(candidate, reference, {})
}
