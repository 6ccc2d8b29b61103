/**
 * What an evaluation needs to be given beyond its config (the expected value scorers compare with,
 * the trace to score, the candidates to rank), checked by one function per type (its schema.ts,
 * `checkInputs`) in two places: by the workflow's validation from what a step's config and the graph
 * say, and by `evaluate` from the values a run hands it. The editor thus refuses what a run would.
 * Browser-safe.
 */
import type { ConfigProblem } from './checks'
import type { GivenInputs } from './parts'
import { evaluationTypeChecks, type EvaluatorConfig } from './config-schema'

export type { GivenInputs }

/**
 * Given at a run: the values themselves. Null is no value, and neither is an empty text: a step's
 * {{reference}} to something missing renders as one.
 */
export function givenValues(input: Record<string, unknown>, compareInputs?: readonly unknown[]): GivenInputs {
  const candidates = Array.isArray(input.candidates) ? input.candidates : compareInputs
  return {
    has: field => input[field] !== undefined && input[field] !== null && input[field] !== '',
    candidates: candidates?.length ?? 0,
  }
}

/**
 * Given to an evaluator step, before a run: a field set in its config (its graph defaults filled
 * in). Candidates are `compare_inputs`, else `candidates` (a list, or a reference whose length only
 * the run knows).
 */
export function givenByStep(config: Record<string, unknown>): GivenInputs {
  const has = (field: string) => config[field] !== undefined && config[field] !== null
  let candidates: number | undefined = 0
  if (Array.isArray(config.compare_inputs)) candidates = config.compare_inputs.length
  else if (Array.isArray(config.candidates)) candidates = config.candidates.length
  else if (has('candidates')) candidates = undefined
  return { has, candidates }
}

export type InputsCheck<C> = (config: C, given: GivenInputs) => ConfigProblem[]

/** The one check of both places: what the config's type needs and is not given. */
export function missingInputs(config: EvaluatorConfig, given: GivenInputs): ConfigProblem[] {
  const check = evaluationTypeChecks[config.evaluation_type].checkInputs as InputsCheck<EvaluatorConfig> | undefined
  return check?.(config, given) ?? []
}
