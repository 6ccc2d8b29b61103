import { z } from 'zod'
import { strictObject } from '../../schema/unknown-keys'
import type { ConfigOf } from '../shared-fields'
import type { EvaluationTypeChecks } from '../parts'
import { assertionProblems } from '../../assertions/registry'
import type { Assertion } from '../../assertions/types'

/** A value that is exactly one `{{reference}}`: the run renders it to the referenced value, checked then. */
const wholeReference = z.string().regex(/^\s*\{\{[^{}]+\}\}\s*$/, 'must be a list of assertions or one {{reference}} to it')

export const assertionSchema: z.ZodType<Assertion> = z.lazy(() => strictObject({
  type: z.string().min(1),
  value: z.unknown().optional(),
  threshold: z.number().optional(),
  weight: z.number().min(0, 'must not be negative').optional(),
  metric: z.string().min(1).optional(),
  transform: z.string().optional(),
  assert: z.array(assertionSchema).optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  grader: z.string().regex(/^[a-z]+:.+$/, 'must be provider:model').optional(),
  embedding_model: z.string().regex(/^[a-z]+:.+$/, 'must be provider:model').optional(),
}, 'an assertion'))

export const assertionsFields = {
  /** The assertions (promptfoo's form), or a reference to them (e.g. {{input.assert}}). */
  assert: z.union([z.array(assertionSchema).max(200), wholeReference]).optional(),
  /** promptfoo's test `threshold`: the weighted score that passes, whatever the assertions' own verdicts. */
  threshold: z.union([z.number(), wholeReference]).nullable().optional(),
  /** The test's vars, for values written with {{var}} and for code's `context.vars`. */
  vars: z.union([z.record(z.string(), z.unknown()), wholeReference]).optional(),
  /** The embedding model of `similar` and answer-relevance (promptfoo's `options.provider.embedding`); promptfoo's default unless given. */
  embedding_model: z.string().min(1).optional(),
  /** promptfoo's test `options.transform`: JavaScript that turns the output before every assertion sees it. */
  transform: z.union([z.string().min(1), wholeReference]).nullable().optional(),
  /**
   * How an imported promptfoo provider turns its answer into the output, before every transform:
   * `json_or_text` (an http provider's default: the parsed JSON unless falsy, else the text), `json`
   * (an OpenAI chat answer to a json_schema response_format: the parsed JSON, else the text).
   */
  provider_output: z.enum(['json_or_text', 'json']).optional(),
  /** promptfoo's http `transformResponse`: JavaScript over the response text (`output`), run before the provider's transform. */
  response_transform: z.string().min(1).nullable().optional(),
  /** promptfoo's provider `transform`: JavaScript that turns the model's output before the test's transform. */
  provider_transform: z.string().min(1).nullable().optional(),
  /** What the model's call cost (its step's cost_usd), for `cost`. */
  cost_usd: z.union([z.number(), wholeReference]).nullable().optional(),
  /** How long the model took (its step's latency_ms), for `latency`. */
  latency_ms: z.union([z.number(), wholeReference]).optional(),
}

export const assertionsChecks: EvaluationTypeChecks<ConfigOf<'assertions', typeof assertionsFields>> = {
  exclusive: ['assert'],
  resolve(config, problems) {
    if (config.assert === undefined) {
      problems.push({ path: 'assert', message: 'give the assertions (a list of { type, value }) or a reference to them' })
      return
    }
    if (!Array.isArray(config.assert)) return
    // An empty list passes (score 1, "No assertions"), as promptfoo passes a test without assertions.
    config.assert.forEach((assertion, i) => {
      for (const message of assertionProblems(assertion, `assert[${i}]`)) problems.push({ path: `assert[${i}]`, message: message.replace(/^assert\[\d+\][^:]*: /, '') })
    })
  },
}
