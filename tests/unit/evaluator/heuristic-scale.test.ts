import { describe, expect, it } from 'vitest'
import { createProviders, evaluate } from '../../../engine'
import { scoreCriterion } from '../../../engine/evaluator/heuristic'

const providers = createProviders({ env: {} })
const distinctNumbers = (count: number, offset: number) => Array.from({ length: count }, (_, i) => String(i * 7 + offset)).join(' ')

/** A third of the suite's 30 s: linear work finishes far within it, quadratic work (half a minute and more here) does not. */
const WELL_WITHIN = { timeout: 10_000 }

describe('the offline judge on large inputs', () => {
  it('checks 20,000 distinct numbers in the content against 20,000 in the reference', WELL_WITHIN, () => {
    const content = distinctNumbers(20_000, 1)
    const reference = distinctNumbers(20_000, 3)
    const verdict = scoreCriterion('accuracy', undefined, { content, reference })
    expect(verdict.reason).toContain('the reference\'s numbers 3, 10, 17, 24, 31 are missing')
    expect(verdict.score).toBe(0)
  })

  it('scores 50 criteria × 10 samples of a 30 KB answer, analysing each text once', WELL_WITHIN, async () => {
    const text = 'Open Settings and choose Forgot password. Then follow the emailed link, which expires in 30 minutes. '.repeat(300)
    const criteria = Array.from({ length: 50 }, (_, i) => ({ name: i < 7 ? ['relevance', 'accuracy', 'clarity', 'completeness', 'helpfulness', 'tone', 'overall'][i]! : `custom_${i}`, description: 'clear steps for the password reset' }))
    const result = await evaluate({ evaluation_type: 'criteria', model: 'local:heuristic', criteria, samples: 10 }, { content: text, context: 'How do I reset my password?', reference: text }, { providers })
    expect(result.samples!.sd).toBe(0)
    expect(Object.keys(result.criteria_scores)).toHaveLength(50)
  })
})
