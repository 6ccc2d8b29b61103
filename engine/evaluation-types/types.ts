/**
 * An evaluation type as the server runs it: its plain spec (spec.ts), its config fields (schema.ts)
 * and what it does with them. Each type's folder exports one, listed in registry.ts.
 */
import type { z } from 'zod'
import type { Providers } from '../providers/types'
import type { EvaluatorResult } from '../schema/evaluator'
import type { Criterion } from './criteria/schema'
import type { RubricGrade } from './rubric/schema'
import type { EvaluatorConfig } from './config-schema'
import type { EvaluationTypeSpec } from './spec'
import type { EvaluationType } from './specs'
import type { ConfigProblem } from './checks'
import type { GivenInputs } from './inputs'
import type { EvaluationContext } from '../evaluator/context'
import type { ResolvedEvaluatorConfig } from '../evaluator/config'
import type { MetricRegistry } from '../evaluator/metrics/registry'
import type { ScorerRegistry } from '../scorers/registry'

/** The registries a type may look its parts up in (the process's, or the caller's). */
export interface EvaluationRegistries {
  metrics: MetricRegistry
  scorers: ScorerRegistry
}

/** The judge a config without `model` gets, when the type has its own default. */
export interface JudgeDefault {
  /** The model named by the type's own fields (the metric suite's `default_model`), if any. */
  declared: string | undefined
  /** The field a wrong model is reported at. */
  field: string
  /** The model used when nothing names one. */
  fallback: string
}

/** What a type's own check settles beyond the schema: the criteria judged and the rubric's bands. */
export interface ResolvedParts {
  criteria?: Criterion[]
  grades?: RubricGrade[]
}

/**
 * Methods (not function properties) so that a definition of one type's config stands in the
 * registry's list of all; `C` is the type's config, `P` what `prepare` hands to `evaluate`.
 */
export interface EvaluationTypeDefinition<C extends EvaluatorConfig = EvaluatorConfig, P = undefined> extends EvaluationTypeSpec<EvaluationType> {
  /** Its own config fields: the union's variant for this type (config-schema.ts) holds these. */
  fields: z.ZodRawShape
  /**
   * Its fields that are a mistake on another type ("is only used by evaluation_type …"); the
   * others (criteria left on a scorers config, say) are set aside. A group is reported once.
   */
  exclusive?: ReadonlyArray<string | readonly string[]>
  /** The judge when the config names no `model` (else the server's default judge). */
  judgeDefault?(config: C): JudgeDefault
  /** Its own checks after the schema's, every problem named; returns the criteria and bands it settles. */
  resolve?(config: C, problems: ConfigProblem[]): ResolvedParts | void
  /**
   * What it needs to be given that is missing (inputs.ts): the workflow's validation asks it from a
   * step's config, `evaluate` from the run's values, so both refuse the same things.
   */
  checkInputs?(config: C, given: GivenInputs): ConfigProblem[]
  /** Looks up what the config names in the registries (metrics, scorers), throwing INVALID_CONFIG. */
  prepare?(config: ResolvedEvaluatorConfig<C>, registries: EvaluationRegistries): P
  /** Checks the models it will call before any call (default: the config's `model`, for a key). */
  checkModels?(config: ResolvedEvaluatorConfig<C>, prepared: P, providers: Providers): void
  /** Every model it will call, for checking keys before a run (default: the config's `model`). */
  models?(config: ResolvedEvaluatorConfig<C>, prepared: P): string[]
  /** Whether it makes no LLM call, so a worker thread may run it (default: no judge, or the offline one). */
  offline?(config: ResolvedEvaluatorConfig<C>, prepared: P): boolean
  evaluate(ctx: EvaluationContext<ResolvedEvaluatorConfig<C>>, prepared: P): EvaluatorResult | Promise<EvaluatorResult>
}

/**
 * A type's checks beyond its schema: browser-safe, exported by its schema.ts and listed in
 * config-schema.ts, so that the editor's validation runs the very checks a run does.
 */
export type EvaluationTypeChecks<C extends EvaluatorConfig = EvaluatorConfig> = Pick<EvaluationTypeDefinition<C>, 'exclusive' | 'judgeDefault' | 'resolve' | 'checkInputs'>

export function defineEvaluationType<C extends EvaluatorConfig, P = undefined>(definition: EvaluationTypeDefinition<C, P>): EvaluationTypeDefinition<C, P> {
  return definition
}
