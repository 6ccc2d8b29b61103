/**
 * An evaluation type as the server runs it: its plain spec (spec.ts), its config fields (schema.ts)
 * and what it does with them. Each type's folder exports one, listed in registry.ts.
 */
import type { z } from 'zod'
import type { Providers } from '../providers/types'
import type { EvaluatorResult } from '../schema/evaluator'
import type { EvaluatorConfig } from './config-schema'
import type { EvaluationTypeSpec } from './spec'
import type { EvaluationType } from './specs'
import type { EvaluationTypeChecks } from './parts'
import type { EvaluationContext } from '../evaluator/context'
import type { ResolvedEvaluatorConfig } from '../evaluator/config'
import type { MetricRegistry } from '../evaluator/metrics/registry'
import type { ScorerRegistry } from '../scorers/registry'

export type { EvaluationTypeChecks, GivenInputs, JudgeDefault, ResolvedParts } from './parts'

/** The registries a type may look its parts up in (the process's, or the caller's). */
export interface EvaluationRegistries {
  metrics: MetricRegistry
  scorers: ScorerRegistry
}

/**
 * Methods (not function properties) so that a definition of one type's config stands in the
 * registry's list of all; `C` is the type's config, `P` what `prepare` hands to `evaluate`.
 */
export interface EvaluationTypeDefinition<C extends EvaluatorConfig = EvaluatorConfig, P = undefined>
  extends EvaluationTypeSpec<EvaluationType>, EvaluationTypeChecks<C> {
  /** Its own config fields: the union's variant for this type (config-schema.ts) holds these. */
  fields: z.ZodRawShape
  /** Looks up what the config names in the registries (metrics, scorers), throwing INVALID_CONFIG. */
  prepare?(config: ResolvedEvaluatorConfig<C>, registries: EvaluationRegistries): P
  /** Checks the models it will call before any call (default: the config's `model`, for a key). */
  checkModels?(config: ResolvedEvaluatorConfig<C>, prepared: P, providers: Providers): void
  /** Every model it will call, for checking keys before a run (default: the config's `model`). */
  models?(config: ResolvedEvaluatorConfig<C>, prepared: P): string[]
  /** Whether it makes no LLM call, so a worker thread may run it (default: every model it calls, evaluator/models.ts modelsCalled, is the offline one). */
  offline?(config: ResolvedEvaluatorConfig<C>, prepared: P): boolean
  evaluate(ctx: EvaluationContext<ResolvedEvaluatorConfig<C>>, prepared: P): EvaluatorResult | Promise<EvaluatorResult>
}

export function defineEvaluationType<C extends EvaluatorConfig, P = undefined>(definition: EvaluationTypeDefinition<C, P>): EvaluationTypeDefinition<C, P> {
  return definition
}
