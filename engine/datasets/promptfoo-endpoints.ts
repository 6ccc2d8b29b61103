import type { Assertion } from '../assertions/types'
import { invalid } from './promptfoo-invalid'

/**
 * A promptfoo provider's own endpoint (`config.apiBaseUrl`, or `config.apiHost` as
 * `https://<host>/v1`, as promptfoo reads them). judgeflow calls one endpoint per provider kind in a
 * run (OPENAI_BASE_URL, ANTHROPIC_BASE_URL), so a suite is run against its providers' endpoint when
 * they agree, and refused when its providers, or its providers and its grader, would need two.
 */

export type EndpointVariable = 'OPENAI_BASE_URL' | 'ANTHROPIC_BASE_URL'
export type Endpoints = Partial<Record<EndpointVariable, string>>

const variableOf = (model: string): EndpointVariable => (model.startsWith('anthropic:') ? 'ANTHROPIC_BASE_URL' : 'OPENAI_BASE_URL')

/** The endpoint a provider's config names, checked; undefined when it names none. */
export function endpointOf(config: Record<string, unknown> | undefined, where: string): string | undefined {
  const { apiBaseUrl, apiHost } = config ?? {}
  if (apiHost !== undefined) {
    if (typeof apiHost !== 'string' || !/^[\w.-]+(:\d+)?$/.test(apiHost)) throw invalid(`the promptfoo config, ${where}.config.apiHost: must be a host name (and port), such as api.example.com`)
    return `https://${apiHost}/v1`
  }
  if (apiBaseUrl === undefined) return undefined
  if (typeof apiBaseUrl !== 'string' || !/^https?:\/\/[^\s]+$/.test(apiBaseUrl)) throw invalid(`the promptfoo config, ${where}.config.apiBaseUrl: must be an http(s) URL, such as http://localhost:11434/v1`)
  return apiBaseUrl
}

/**
 * The endpoints the suite's providers need, by variable; refused when two providers of one kind
 * name different endpoints (or one names none), or a grader of that kind would be sent there
 * while promptfoo calls it at its default endpoint.
 */
export function endpointsOf(
  providers: ReadonlyArray<{ model: string, endpoint?: string, where: string }>, graders: readonly string[],
): { endpoints: Endpoints, notes: string[] } {
  const endpoints: Endpoints = {}
  const notes: string[] = []
  for (const variable of ['OPENAI_BASE_URL', 'ANTHROPIC_BASE_URL'] as const) {
    const ofKind = providers.filter(p => variableOf(p.model) === variable)
    const named = ofKind.find(p => p.endpoint)
    if (!named) continue
    const other = ofKind.find(p => p.endpoint !== named.endpoint)
    if (other) {
      throw invalid(`the promptfoo config, ${other.where}: it calls ${other.endpoint ?? 'the default endpoint'} while ${named.where} calls ${named.endpoint}; judgeflow calls one endpoint per provider kind in a run (${variable}): run them as two suites`)
    }
    const grader = graders.find(model => variableOf(model) === variable && !ofKind.some(p => p.model === model))
    if (grader) {
      throw invalid(`the promptfoo config: its providers call ${named.endpoint}, and judgeflow would call the grader ${grader} there too (one endpoint per provider kind in a run, ${variable}), where promptfoo calls it at its default endpoint; name a grader of another kind, or one of the providers, with --grader or defaultTest.options.provider`)
    }
    endpoints[variable] = named.endpoint!
    notes.push(`${named.where}.config: its endpoint ${named.endpoint} is where judgeflow test calls every ${variable === 'OPENAI_BASE_URL' ? 'openai' : 'anthropic'}: model of this suite (${variable}); a saved workflow run elsewhere (the server) calls the ${variable} set there`)
  }
  return { endpoints, notes }
}

/** Every grader and embedding model the assertions (and the suite's defaults) name. */
export function gradersIn(all: readonly Assertion[], defaults: ReadonlyArray<string | undefined>): string[] {
  const walk = (a: Assertion): Array<string | undefined> => (a.assert ? a.assert.flatMap(walk) : [a.grader, a.embedding_model])
  return [...defaults, ...all.flatMap(walk)].filter((m): m is string => typeof m === 'string')
}
