/**
 * An evaluator that names no judge is judged by the default one; with no key set (and no
 * JUDGEFLOW_DEFAULT_JUDGE), that is the offline `local:heuristic`, which scores text features, not
 * as an LLM would. That change of judge is never silent: the result says it in `warnings`, and a
 * caller that requires a real judge (JUDGEFLOW_REQUIRE_JUDGE, --require-judge) has it refused
 * before any call.
 */
import { JudgeflowError } from '../errors'
import { splitStepConfig } from '../evaluation-types/fields'
import { OFFLINE_JUDGE } from '../providers/models'
import type { DefaultJudgeFallback, Providers } from '../providers/types'
import { resolveEvaluatorConfig, type ResolvedEvaluatorConfig } from './config'
import { evaluatorModels } from './models'

/** Stands for "the default judge" while finding whether a config leaves its judge to the default. */
const DEFAULT_JUDGE_SLOT = 'default:judge'

/** Whether the evaluation would call the default judge: a judge-using type whose config names no model of its own. */
export function callsDefaultJudge(rawConfig: unknown): boolean {
  return evaluatorModels(resolveEvaluatorConfig(rawConfig, DEFAULT_JUDGE_SLOT)).includes(DEFAULT_JUDGE_SLOT)
}

const either = (keys: readonly string[]) => (keys.length > 1 ? `neither ${keys.slice(0, -1).join(', ')} nor ${keys.at(-1)} is set` : `${keys[0]} is not set`)

/** What the result says when the offline judge stood in for the default one: one sentence. */
export function judgeFallbackWarning(fallback: DefaultJudgeFallback): string {
  const judges = fallback.keys.map(key => `${fallback.judges[key]} with ${key}`).join(', ')
  return `No judge model was named and ${either(fallback.keys)}, so the offline ${OFFLINE_JUDGE} judge graded this from text features instead of an LLM judge`
    + `: set a key (the default judge is then ${judges}), name a model in the evaluator's config, or set JUDGEFLOW_DEFAULT_JUDGE`
    + ' (--require-judge or JUDGEFLOW_REQUIRE_JUDGE=1 refuses this fallback).'
}

/** Why an evaluator is refused when a real judge is required and it would fall back: one sentence naming it and the keys. */
export function judgeFallbackRefusal(usedBy: string, fallback: DefaultJudgeFallback): JudgeflowError {
  return new JudgeflowError('MISSING_API_KEY', `A real judge is required (--require-judge, JUDGEFLOW_REQUIRE_JUDGE), but ${usedBy} names no judge model and ${either(fallback.keys)}`
    + `: set ${fallback.keys.join(' or ')}, or name a model in its config (e.g. "model": "${fallback.judges[fallback.keys[0]!]}").`, {
    details: { variables: fallback.keys },
  })
}

/**
 * The warning of an evaluation whose judge falls back to the offline one, or undefined when it does
 * not; throws MISSING_API_KEY instead when the providers require a real judge. `config` is the
 * config already resolved with the providers' default judge.
 */
export function checkDefaultJudge(
  rawConfig: unknown, config: ResolvedEvaluatorConfig, providers: Providers, usedBy: string, prepared?: { value: unknown },
): string | undefined {
  const fallback = providers.defaultJudgeFallback?.()
  if (!fallback || config.judges || config.declared.model || config.model !== OFFLINE_JUDGE) return undefined
  // The default stood for the offline judge here: a config that calls no offline judge at all calls no default one.
  if (prepared && !evaluatorModels(config, undefined, prepared).includes(OFFLINE_JUDGE)) return undefined
  if (!callsDefaultJudge(rawConfig)) return undefined
  if (fallback.refused) throw judgeFallbackRefusal(usedBy, fallback)
  return judgeFallbackWarning(fallback)
}

/**
 * Before a run: refuses an evaluator step that would fall back when a real judge is required. A
 * step whose config is in a file (config_file) is checked when the file is read, as it runs.
 */
export function checkStepJudge(node: { id: string, type: string, config: Record<string, unknown>, pinned?: unknown }, providers: Providers): void {
  if (node.type !== 'evaluator' || node.pinned || node.config.config_file !== undefined) return
  const fallback = providers.defaultJudgeFallback?.()
  if (!fallback?.refused) return
  let calls: boolean
  try {
    calls = callsDefaultJudge(splitStepConfig(node.config).evaluator)
  }
  catch {
    // An invalid config is reported by validation and by the run, naming its fields.
    return
  }
  if (calls) throw judgeFallbackRefusal(`node "${node.id}"`, fallback)
}
