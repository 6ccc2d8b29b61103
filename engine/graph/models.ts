import { closestKey } from '../schema/unknown-keys'
import { KNOWN_PROVIDERS, OFFLINE_JUDGE, PROVIDER_MODELS } from '../providers/models'
import { isPriced, pricedModels } from '../providers/prices'
import type { Workflow } from '../schema/workflow'
import type { Problem } from './problem'

/**
 * Config fields naming a model, in a step's config, a metric suite's `[llm_default]` and
 * `[[metrics]]`, or an assertion; `provider` stands beside a bare name.
 */
const MODEL_FIELDS = ['model', 'default_model', 'grader', 'embedding_model'] as const

/** Every model a step's config names, with the field that names it (`metrics[0].model`). */
export function namedModels(config: Record<string, unknown>): Array<{ path: string, ref: string }> {
  const found: Array<{ path: string, ref: string }> = []
  const provider = typeof config.provider === 'string' ? config.provider : undefined
  const collect = (object: unknown, at: string, inherited: string | undefined) => {
    if (!object || typeof object !== 'object' || Array.isArray(object)) return
    const record = object as Record<string, unknown>
    const own = typeof record.provider === 'string' ? record.provider : inherited
    for (const field of MODEL_FIELDS) {
      const value = record[field]
      if (typeof value !== 'string' || !value) continue
      const byProvider = field === 'default_model' && typeof record.default_provider === 'string' ? record.default_provider : own
      const ref = value.includes(':') ? value : byProvider ? `${byProvider}:${value}` : undefined
      if (ref) found.push({ path: `${at}${field}`, ref })
    }
  }
  collect(config, '', provider)
  const suiteDefault = (config.llm_default as { provider?: unknown } | undefined)?.provider
  collect(config.llm_default, 'llm_default.', typeof suiteDefault === 'string' ? suiteDefault : provider)
  if (Array.isArray(config.metrics)) config.metrics.forEach((metric, i) => collect(metric, `metrics[${i}].`, typeof suiteDefault === 'string' ? suiteDefault : provider))
  if (Array.isArray(config.judges)) config.judges.forEach((judge, i) => typeof judge === 'string' && judge.includes(':') && found.push({ path: `judges[${i}]`, ref: judge }))
  // An assertion's own grader, and those of the assertions it combines (assert-set).
  const assertions = (list: unknown, at: string) => {
    if (Array.isArray(list)) list.forEach((assertion, i) => {
      collect(assertion, `${at}[${i}].`, undefined)
      assertions((assertion as { assert?: unknown } | null)?.assert, `${at}[${i}].assert`)
    })
  }
  assertions(config.assert, 'assert')
  return found
}

const digits = (name: string) => name.replace(/\D+/g, ' ').trim()

/**
 * The known model of the same provider a name is likely a typo of: close by edit distance and with
 * the same numbers (gpt-4o-mni → gpt-4o-mini; gpt-5 is another model, not a typo of gpt-4).
 */
function nearestKnownModel(provider: string, model: string): string | undefined {
  const known = [...new Set([...pricedModels(), ...(PROVIDER_MODELS[provider] ?? [])])]
    .filter(ref => ref.startsWith(`${provider}:`))
    .map(ref => ref.slice(provider.length + 1))
    .filter(name => digits(name) === digits(model))
  const near = closestKey(model, known)
  return near && `${provider}:${near}`
}

/**
 * What is wrong with a `provider:model` before anything calls it: a provider judgeflow does not
 * call, or a `local:` model other than the offline judge, is an error; a name judgeflow knows no
 * price for that is close to one it knows is a warning (new models run, unpriced).
 */
export function modelRefProblem(ref: string, providers: readonly string[] = KNOWN_PROVIDERS): { message: string, severity?: 'warning' } | undefined {
  const colon = ref.indexOf(':')
  if (colon < 1) return undefined
  const provider = ref.slice(0, colon)
  const model = ref.slice(colon + 1)
  if (!providers.includes(provider)) {
    const near = closestKey(provider, providers)
    return { message: `unknown provider "${provider}" in "${ref}": judgeflow calls ${providers.join(', ')}${near ? `; did you mean "${near}:${model}"?` : ''}` }
  }
  // A provider of the caller's (the library's `providers`): its models are its own to know.
  if (!KNOWN_PROVIDERS.includes(provider)) return undefined
  if (provider === 'local') {
    if (ref === OFFLINE_JUDGE) return undefined
    const near = closestKey(model, [OFFLINE_JUDGE.slice('local:'.length)])
    return { message: `"${ref}" is not a local judge: ${near ? `did you mean "${OFFLINE_JUDGE}"?` : `the offline judge is "${OFFLINE_JUDGE}"`}` }
  }
  if (isPriced(ref) || PROVIDER_MODELS[provider]?.includes(ref)) return undefined
  const near = nearestKnownModel(provider, model)
  if (!near) return undefined
  return { severity: 'warning', message: `"${ref}" is not a model judgeflow knows a price for: did you mean "${near}"? (a model it does not know runs, unpriced; JUDGEFLOW_PRICES gives it a price)` }
}

/**
 * The models of each step that runs (a pinned step calls none), checked (modelRefProblem) on the
 * step and field that name them; a field that already has a problem (`found`) is left to it.
 * `providers`: the provider ids the run calls (the built-in ones unless given).
 */
export function modelProblems(nodes: Workflow['nodes'], found: readonly Problem[], providers?: readonly string[]): Problem[] {
  const flagged = new Set(found.map(p => p.path))
  const problems: Problem[] = []
  for (const node of nodes) {
    if (node.pinned?.length) continue
    for (const { path, ref } of namedModels(node.config)) {
      const at = `nodes.${node.id}.config.${path}`
      const problem = flagged.has(at) ? undefined : modelRefProblem(ref, providers)
      if (!problem) continue
      problems.push({ code: 'invalid_config', node: node.id, path: at, message: `node "${node.id}": ${at}: ${problem.message}`, ...(problem.severity ? { severity: problem.severity } : {}) })
    }
  }
  return problems
}
