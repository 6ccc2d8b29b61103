import type { AssertionHandler } from './types'

/** Word-overlap scores against reference texts: ROUGE (n, l, s) and BLEU, passing at a threshold. */

const scores = () => import('./overlap-scores')

function rouge(type: 'rouge-n' | 'rouge-l' | 'rouge-s'): AssertionHandler {
  return {
    type,
    label: type,
    description: `The ${type.toUpperCase()} score against the value (lower-cased) reaches \`threshold\` (default 0.75).`,
    negatable: true,
    check: a => (typeof a.value === 'string' ? undefined : 'must have a text value'),
    handle: async ({ assertion, text, inverse }) => {
      const candidate = text.toLowerCase()
      const reference = String(assertion.value).toLowerCase()
      const score = (await scores()).rougeScore(type, candidate, reference)
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
    handle: async ({ assertion, text, inverse }) => {
      const threshold = assertion.threshold ?? 0.5
      const score = (await scores()).bleu(text, Array.isArray(assertion.value) ? assertion.value as string[] : [String(assertion.value)])
      const pass = (score >= threshold) !== inverse
      return { pass, score: inverse ? 1 - score : score, reason: pass ? 'Assertion passed' : `BLEU score ${score.toFixed(4)} is ${inverse ? 'greater' : 'less'} than threshold ${threshold}` }
    },
  },
]
