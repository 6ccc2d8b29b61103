import { JudgeflowError } from '../../errors'
import { parseTemplate } from '../../executor/references'
import { extractAnswer } from '../../http/answer-path'
import { type HttpAccess, openHttpAccess, readEnvValue } from '../../http/access'
import { httpCall } from '../../http/request'
import { defineStep, type TokenUsage } from '../types'
import { httpSpec } from './spec'
import { redactor, shownHeaders } from './secrets'

export const httpStep = defineStep({
  ...httpSpec,
  async run({ node, config, settings, signal, evaluation }) {
    const access: HttpAccess = evaluation.http ?? openHttpAccess()
    const secrets = new Map<string, string>()
    const headers: Record<string, string> = {}
    const written = (node.config.headers ?? {}) as Record<string, unknown>
    for (const [name, value] of Object.entries(config.headers ?? {})) {
      const raw = written[name]
      const readsEnv = typeof raw === 'string' && raw.includes('{{env.')
      headers[name] = readsEnv ? withEnv(raw, access, settings.env, `headers.${name}`, secrets) : value
    }
    const redact = redactor(secrets)
    try {
      const result = await httpCall({
        url: config.url, method: config.method, headers, body: config.body, timeoutMs: config.timeout_ms,
        retries: config.retries, expectStatus: config.expect_status, policy: access.policy, signal,
      })
      const answer = config.answer === undefined ? result.text : extractAnswer(result.json, config.answer)
      const text = typeof answer === 'string' ? answer : JSON.stringify(answer) ?? ''
      const usage = reportedUsage(result.json)
      return {
        output: redact({
          text, json: result.json, status: result.status, headers: shownHeaders(result.headers), latency_ms: result.latency_ms, attempts: result.attempts,
          ...(usage ? { usage } : {}),
        }),
        ...(usage ? { usage } : {}),
      }
    }
    catch (error) {
      if (!(error instanceof JudgeflowError) || !secrets.size) throw error
      // A service that echoes its request may quote a header in the body excerpt an error shows.
      throw new JudgeflowError(error.code, redact(error.message), { category: error.category, details: redact(error.details) })
    }
  },
})

/** A header written with `{{env.NAME}}`: its text with each variable's value put in; nothing else in it is a reference (validation says so). */
function withEnv(template: string, access: HttpAccess, settingsEnv: readonly string[] | undefined, field: string, secrets: Map<string, string>): string {
  const parsed = parseTemplate(template)
  let out = ''
  for (const segment of Array.isArray(parsed) ? parsed : [parsed]) {
    if (typeof segment === 'string') out += segment
    else if (segment.root === 'env') {
      const name = String(segment.path[0])
      const value = readEnvValue(access, name, settingsEnv, field)
      secrets.set(name, value)
      out += value
    }
    else throw new JudgeflowError('INVALID_CONFIG', `${field} mixes {{env.…}} with other references: a header that reads a variable holds only text and {{env.NAME}}.`, { details: { field } })
  }
  return out
}

/** The token usage an OpenAI- or Anthropic-shaped response reports at its top level (`usage`), or undefined. */
function reportedUsage(json: unknown): TokenUsage | undefined {
  const usage = (json as { usage?: Record<string, unknown> } | null)?.usage
  if (!usage || typeof usage !== 'object') return undefined
  const input = usage.prompt_tokens ?? usage.input_tokens
  const output = usage.completion_tokens ?? usage.output_tokens
  const count = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 0
  return count(input) && count(output) ? { input_tokens: input as number, output_tokens: output as number } : undefined
}
