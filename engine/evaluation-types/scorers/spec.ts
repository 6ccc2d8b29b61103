import { defineEvaluationTypeSpec } from '../spec'
import { objectOf, output } from '../../steps/outputs'
import { scorerKeys } from '../outputs'

/** Each scorer has its own threshold, so the form shows no overall one. */
export const scorersSpec = defineEvaluationTypeSpec({
  type: 'scorers',
  label: 'Scorers',
  description: 'Deterministic scorers: no LLM; every scorer must reach its threshold.',
  inputs: ['actual', 'expected', 'original'],
  usesJudge: false,
  judgesContent: false,
  sections: ['scorers'],
  order: 6,
  outputs: config => ({
    scoreKeys: scorerKeys(config),
    scoreKeysAre: 'each scorer\'s type (a repeat as `<type>#2`)',
    fields: {
      criteria_reasons: output('object', 'each scorer\'s score against its threshold', { open: true }),
      scorer_results: output('array', 'each scorer\'s result', {
        items: objectOf({
          type: output('string', 'the scorer'),
          score: output('number', 'its score, 0–1'),
          threshold: output('number', 'the score it must reach'),
          weight: output('number', 'its weight in the overall score'),
          passed: output('boolean', 'whether it reached its threshold'),
          details: output('object', 'what the scorer found', { open: true }),
        }, 'a scorer\'s result'),
      }),
    },
  }),
})
