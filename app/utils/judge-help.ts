import { modelRefOf } from '../../engine/evaluation-types/checks'
import { formSpecFor } from '../../engine/evaluation-types/specs'
import { KNOWN_PROVIDERS, OFFLINE_JUDGE, PROVIDER_KEY_VARIABLES } from '../../engine/providers/models'

/** What the server says of its judges (GET /api/models): its default judge and which provider keys it has. */
export interface ServerJudges {
  defaultJudge?: string
  keys: Readonly<Record<string, boolean>>
}

/** The judge an evaluator gets when its form names none, and why: the order its run resolves it in (engine/evaluator/config.ts). */
export interface JudgeWhenNone {
  model: string | undefined
  /** The label of the judge picker's empty choice. */
  label: string
}

/** The judge used without a chosen model: the type's own fields (`default_model`), the type's built-in default, else the server's. */
export function judgeWhenNone(config: Record<string, unknown>, server: ServerJudges): JudgeWhenNone {
  const spec = formSpecFor(config.evaluation_type)
  const own = spec.judgeDefault?.(config)
  if (own?.declared) return { model: own.declared, label: `${own.declared} (${own.field})` }
  if (own?.fallback) return { model: own.fallback, label: `${own.fallback} (the ${spec.label.toLowerCase()}'s default)` }
  if (server.defaultJudge) return { model: server.defaultJudge, label: `${server.defaultJudge} (server default)` }
  return { model: undefined, label: 'server default' }
}

/** The judge a config uses: the model chosen, else the one it gets without. */
export function effectiveJudge(config: Record<string, unknown>, server: ServerJudges): string | undefined {
  const chosen = modelRefOf(typeof config.model === 'string' ? config.model : undefined, typeof config.provider === 'string' ? config.provider : undefined)
  return chosen ?? judgeWhenNone(config, server).model
}

const PROVIDER_NAMES: Record<string, string> = { openai: 'OpenAI', anthropic: 'Anthropic' }

/**
 * The help under the judge model, about the model in force, named in full (a long name is cut in
 * its select): the offline judge says it needs no key; a provider's model names the key it needs
 * and whether this server has it.
 */
export function judgeModelHelp(model: string | undefined, server: ServerJudges, everyMetric = false): string {
  const what = everyMetric ? 'The model that judges every metric (unless a metric names its own).' : 'The model that judges.'
  if (!model) return `${what} Left empty, the server's default judges.`
  if (model === OFFLINE_JUDGE) {
    const noKeys = model === server.defaultJudge && !Object.values(server.keys).some(Boolean)
    return `${what} local:heuristic judges offline, without a key: a deterministic heuristic, no network.${noKeys ? ' This server has no provider key, so it is the default.' : ''}`
  }
  // The provider is what comes before the first colon (engine/schema/common.ts's splitModelRef, which brings zod to the page).
  const provider = model.slice(0, model.indexOf(':'))
  const variable = PROVIDER_KEY_VARIABLES[provider]
  if (provider === 'local') return `${what} ${model} is not a judge: the offline judge is ${OFFLINE_JUDGE}.`
  if (!variable) return `${what} "${provider}" is not a provider this server calls (${KNOWN_PROVIDERS.join(', ')}).`
  const via = provider === 'openai' ? ' (or the OpenAI-compatible server at OPENAI_BASE_URL)' : ''
  if (server.keys[provider]) return `${what} ${model} calls ${PROVIDER_NAMES[provider] ?? provider}${via} with ${variable}, set on this server.`
  return `${what} ${model} needs ${variable}, not set on this server, so a run is refused before it starts: set it in the server's environment, or choose ${OFFLINE_JUDGE} to judge offline.`
}
