/**
 * "Send test request" of the editor's http form: one call made by the http step's own definition
 * (the same rendering of `{{env.NAME}}` headers, the same redaction, the same address policy as
 * a run), outside any run: nothing is stored.
 */
import { z } from 'zod'
import { JudgeflowError } from '~~/engine/errors'
import { formatPath } from '~~/engine/graph/path'
import type { HttpAccess } from '~~/engine/http/access'
import { httpStep } from '~~/engine/steps/http'
import { parseReference, resolveReference, stringifyValue, type ReferenceScope } from '~~/engine/executor/references'
import type { Providers } from '~~/engine/providers/types'
import { asSentence } from '~~/engine/text/sentence'

export const httpTestBodySchema = z.object({
  /** The step's config as the form holds it (references as written). */
  config: z.record(z.string(), z.unknown()),
  /** A sample run input for `{{input.…}}`. */
  input: z.record(z.string(), z.unknown()).default({}),
})

/** Characters of the extracted answer sent back: the panel shows a glimpse, not a download. */
export const SHOWN_ANSWER_CHARS = 4000

export type HttpTestAnswer
  = | { ok: true, status: number, latency_ms: number, attempts: number, answer: string, truncated: boolean }
    | { ok: false, code: string, message: string }

const REFERENCE = /\{\{([^{}]*)\}\}/g

/**
 * The config with each reference the sample input answers put in; the others (`{{steps.…}}`,
 * `{{env.…}}`, a field the input lacks) stay as written. A lone reference keeps its value's type.
 */
export function renderFromSample(value: unknown, input: Record<string, unknown>): unknown {
  const scope: ReferenceScope = { input, steps: new Map(), attempt: 1 }
  const known = (expression: string) => {
    try {
      const reference = parseReference(expression)
      return reference.root === 'env' ? undefined : resolveReference(reference, scope)
    }
    catch {
      return undefined
    }
  }
  if (typeof value === 'string') {
    const whole = /^\{\{([^{}]*)\}\}$/.exec(value)
    if (whole) return known(whole[1]!) ?? value
    return value.replace(REFERENCE, (text, expression: string) => {
      const found = known(expression)
      return found === undefined ? text : stringifyValue(found)
    })
  }
  if (Array.isArray(value)) return value.map(item => renderFromSample(item, input))
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, renderFromSample(item, input)]))
  return value
}

/** Calls the endpoint as the step would; a refusal or failure is an answer (`ok: false`) saying why, in the step's words. */
export async function sendTestRequest(
  written: Record<string, unknown>, input: Record<string, unknown>, deps: { http: HttpAccess, providers: Providers },
): Promise<HttpTestAnswer> {
  try {
    const parsed = httpStep.configSchema.safeParse(renderFromSample(written, input))
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!
      throw new JudgeflowError('INVALID_CONFIG', asSentence(`${formatPath(['config', ...issue.path])}: ${issue.message}`))
    }
    const problem = httpStep.runProblems?.(parsed.data as Record<string, unknown>)[0]
    if (problem) throw new JudgeflowError('INVALID_CONFIG', asSentence(`config.${problem.path}: ${problem.message}`))
    const outcome = await httpStep.run({
      node: { id: 'test', type: 'http', config: written }, config: parsed.data, attempt: 1, input, signal: new AbortController().signal,
      providers: deps.providers, settings: {}, evaluation: { http: deps.http }, cache: false, runsOf: () => 0,
    })
    const output = outcome.output as { text: string, status: number, latency_ms: number, attempts: number }
    return {
      ok: true, status: output.status, latency_ms: output.latency_ms, attempts: output.attempts,
      answer: output.text.slice(0, SHOWN_ANSWER_CHARS), truncated: output.text.length > SHOWN_ANSWER_CHARS,
    }
  }
  catch (error) {
    if (!(error instanceof JudgeflowError) || error.category === 'system') throw error
    return { ok: false, code: error.code, message: error.message }
  }
}
