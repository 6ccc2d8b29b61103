/**
 * What an evaluator step outputs: the fields every evaluation type reports, with the chosen
 * type's own (its spec's `outputs`). Browser-safe and free of zod.
 */
import { evaluationTypeSpec } from '../../evaluation-types/specs'
import { keyedBy, objectOf, output, type OutputField, type OutputFields } from '../outputs'

const score = output('number', 'its score, 0–1')

/** The fields of every evaluator result, with `criteria_scores` keyed by the type's score keys. */
export function commonEvaluatorFields(scoreKeys: readonly string[] | undefined): OutputFields {
  return {
    passed: output('boolean', 'whether the overall score reached pass_threshold'),
    overall_score: output('number', 'the overall score, 0–1'),
    criteria_scores: keyedBy(scoreKeys, score, 'a score, 0–1, per criterion (scorer, metric or factor)'),
    criteria_reasons: keyedBy(scoreKeys, output('string', 'why'), 'the reason for each score'),
    feedback: output('string', 'what to improve (empty without include_feedback)'),
    suggestions: output('array', 'concrete changes', { items: output('string', 'a suggestion') }),
    grade: output('null', 'the grade (rubric only)'),
    confidence: output('number', 'how far to trust the result, 0–1'),
    confidence_factors: objectOf({
      agreement: output('number', 'agreement between samples or orders'),
      margin: output('number', 'distance from the threshold'),
      validity: output('number', 'answers that needed no re-ask'),
      judge: output('number', 'the judge\'s own cap'),
    }, 'what the confidence is made of'),
    evaluation_type: output('string', 'the evaluation type'),
    pass_threshold: output('number', 'the threshold, 0–1'),
    judge: objectOf({
      model: output('string', 'the judge model ("code" when none was called)'),
      heuristic: output('boolean', 'whether it was the offline local:heuristic judge'),
      calls: output('number', 'judge calls made'),
      cached_calls: output('number', 'calls answered from the cache'),
      reasks: output('number', 'answers asked again for a valid shape'),
      repaired: output('number', 'answers read after repairing the JSON around them (a fenced block, prose, single quotes, trailing commas)'),
      structured_output: output(['string', 'null'], 'how the last answer was held to its schema: json_schema, tool, json_object or text (null: no judge called)'),
      fingerprint_parts: objectOf({
        models: output('string', 'hash of the judge models'),
        prompt: output('string', 'hash of the type, its instructions and settings'),
        criteria: output('string', 'hash of the criteria'),
        rubric: output('string', 'hash of the grade bands'),
        weights: output('string', 'hash of the weights'),
        threshold: output('string', 'hash of the pass threshold'),
      }, 'each part of the judge\'s fingerprint, hashed'),
    }, 'the judge and its calls'),
    judge_fingerprint: output('string', 'a hash of what decides the verdicts: models, prompt, criteria, rubric, weights, threshold'),
    usage: objectOf({
      input_tokens: output('number', 'tokens sent'),
      output_tokens: output('number', 'tokens received'),
    }, 'the judge\'s token usage'),
    cost_usd: output(['number', 'null'], 'what the judge\'s calls cost in US dollars at their models\' prices (0: none called or all cached); null when a model\'s price is not known'),
    latency_ms: output('number', 'how long it took, in milliseconds'),
  }
}

/** The evaluator step's output for its config; a type given only in `config_file` is known only to the run. */
export function evaluatorOutputs(config: Record<string, unknown>): OutputField {
  const type = evaluationTypeSpec(config.evaluation_type)
  // What a file holds (the type, criteria, samples) is read only by the run.
  if (!type || config.config_file !== undefined) return objectOf(commonEvaluatorFields(undefined), 'the evaluation\'s result', { open: true })
  const own = type.outputs(config)
  return objectOf({ ...commonEvaluatorFields(own.scoreKeys), ...own.fields }, `the ${type.label.toLowerCase()} result`)
}
