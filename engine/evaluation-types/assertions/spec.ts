import { defineEvaluationTypeSpec } from '../spec'
import { objectOf, output } from '../../steps/outputs'

/** promptfoo's assertions, graded as promptfoo grades them (a suite carried over keeps its verdicts). */
export const assertionsSpec = defineEvaluationTypeSpec({
  type: 'assertions',
  label: 'Assertions (promptfoo)',
  description: 'promptfoo assertions (contains, is-json, javascript, llm-rubric…), each graded as promptfoo does; every one must pass, or the weighted score reach the threshold.',
  inputs: ['content', 'context'],
  usesJudge: true,
  judgesContent: true,
  sections: ['judge', 'assertions'],
  order: 8,
  outputs: () => ({
    scoreKeys: undefined,
    scoreKeysAre: 'each assertion\'s type and place (`contains_1`, `llm_rubric_2`)',
    fields: {
      criteria_reasons: output('object', 'why each assertion passed or failed', { open: true }),
      named_scores: output('object', 'the weighted mean score of each metric', { open: true }),
      assertions: output('array', 'each assertion\'s grade, in order', {
        items: objectOf({
          type: output('string', 'the assertion type'),
          pass: output('boolean', 'whether it passed'),
          score: output('number', 'its score, 0–1'),
          reason: output('string', 'why'),
          weight: output('number', 'its weight in the score'),
          metric: output('string', 'its metric name, if any'),
          graderError: output('boolean', 'set when the grader failed'),
          components: output('array', 'an assert-set\'s own grades', { items: output('object', 'a grade', { open: true }) }),
          awaiting: output('boolean', 'set on a select-best still to decide over the test\'s other outputs'),
        }, 'an assertion\'s grade'),
      }),
      graded_output: output('string', 'the output as the assertions graded it, when a transform (the provider\'s, the test\'s) changed it'),
      selections: output('array', 'given candidates (select-best over a test\'s outputs): one grade per candidate, in order', {
        items: output('object', 'a candidate\'s grade: type, pass, score, reason', { open: true }),
      }),
      awaiting_comparison: output('object', 'a select-best still to decide: the assertion, the output and the test\'s verdict without it', { open: true }),
    },
  }),
})
