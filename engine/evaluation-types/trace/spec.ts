import { defineEvaluationTypeSpec } from '../spec'
import { objectOf, output } from '../../steps/outputs'
import { TRACE_FACTORS } from '../outputs'

export const traceSpec = defineEvaluationTypeSpec({
  type: 'trace',
  label: 'Trace scoring',
  description: 'Scores an agent\'s reasoning trace: complexity, novelty, tool diversity, outcome.',
  inputs: ['trace'],
  usesJudge: false,
  judgesContent: false,
  sections: ['trace', 'threshold'],
  order: 7,
  outputs: () => ({
    scoreKeys: TRACE_FACTORS,
    scoreKeysAre: TRACE_FACTORS.map(f => `\`${f}\``).join(', '),
    fields: {
      criteria_reasons: objectOf(Object.fromEntries(TRACE_FACTORS.map(f => [f, output('string', 'how the factor was reached')])), 'how each factor was reached'),
      trace: objectOf({
        score: output('number', 'the trace\'s score, 0–1'),
        C: output('number', 'complexity'),
        N: output('number', 'novelty'),
        D: output('number', 'tool diversity'),
        O: output('number', 'outcome confidence'),
        factors: objectOf(Object.fromEntries(TRACE_FACTORS.map(f => [f, output('number', 'the factor, 0–1')])), 'the four factors'),
        profile: output('string', 'the weight profile used'),
        weights: output('object', 'the weight of each factor', { open: true }),
        overrides: output('array', 'the overrides that fired', { items: output('string', 'an override') }),
        counts: output('object', 'steps, step types, tools and error recoveries counted', { open: true }),
        novelty_source: output('string', 'where novelty came from'),
        embedder: output(['string', 'null'], 'the embedder used, if any'),
        cache: objectOf({
          fresh: output('boolean', 'whether a fresh cache was used'),
          ttl_ms: output(['number', 'null'], 'how long a trace is remembered'),
          size: output(['number', 'null'], 'how many traces are remembered'),
        }, 'the novelty cache\'s settings'),
      }, 'the factors, the profile and the overrides that fired'),
    },
  }),
})
