import { z } from 'zod'
import { findReferences } from '../../executor/references'
import { parseAnswerPath } from '../../http/answer-path'
import { strictObject } from '../../schema/unknown-keys'
import { defineStepSpec } from '../types'
import { builtinStepMeta } from '../step-meta'
import { httpOutputs } from './outputs'

export const httpMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const
export const DEFAULT_HTTP_RETRIES = 2
export const MAX_HTTP_TIMEOUT_MS = 600_000
/** A header's name as HTTP allows it (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+\-.^`|~\w]+$/
/** Headers the call sets itself. */
const SET_BY_CALL = new Set(['host', 'content-length', 'transfer-encoding', 'connection'])

const statusSchema = z.number().int().min(100).max(599)

/**
 * What an http step's run refuses, found before it runs: an `answer` that is not a path, a body on
 * a GET or HEAD, a header that mixes `{{env.…}}` with other references.
 */
function httpRunProblems(config: Record<string, unknown>): Array<{ path: string, message: string }> {
  const problems: Array<{ path: string, message: string }> = []
  if (typeof config.answer === 'string' && !findReferences(config.answer).length) {
    try {
      parseAnswerPath(config.answer)
    }
    catch (error) {
      problems.push({ path: 'answer', message: (error as Error).message })
    }
  }
  const method = typeof config.method === 'string' ? config.method.toUpperCase() : 'POST'
  if (config.body !== undefined && (method === 'GET' || method === 'HEAD')) problems.push({ path: 'body', message: `a ${method} request sends no body: remove it, or use POST` })
  return problems
}

export const httpSpec = defineStepSpec({
  type: 'http',
  label: builtinStepMeta.http.label,
  description: 'Calls your product\'s HTTP endpoint and returns its answer, status and latency.',
  configSchema: strictObject({
    /** An absolute http(s) URL; references allowed (`{{input.base}}/chat`). */
    url: z.string().min(1, 'is empty'),
    method: z.string().transform(method => method.toUpperCase()).pipe(z.enum(httpMethods)).default('POST'),
    /** Values may read `{{env.NAME}}` (only names JUDGEFLOW_HTTP_ENV or `settings.env` list), put in only as the request is sent. */
    headers: z.record(
      z.string().regex(HEADER_NAME, 'is not a header name').refine(name => !SET_BY_CALL.has(name.toLowerCase()), 'is set by the call itself'),
      z.union([z.string(), z.number(), z.boolean()]).transform(String),
    ).optional(),
    /** Any JSON; a string is sent as it is, anything else as JSON. */
    body: z.unknown().optional(),
    /** A path into the response's JSON (`choices[0].message.content`); the whole body when absent. */
    answer: z.string().optional(),
    timeout_ms: z.number().int().min(1).max(MAX_HTTP_TIMEOUT_MS).optional(),
    /** Calls made again after a 429 or 5xx, waiting as Retry-After asks or with backoff. */
    retries: z.number().int().min(0).max(10).default(DEFAULT_HTTP_RETRIES),
    /** The statuses that succeed; any 2xx when absent; `any`: every status is the answer (a 429 still retried). */
    expect_status: z.union([statusSchema, z.array(statusSchema).min(1).max(20), z.literal('any')]).optional(),
  }),
  pinnedOptional: builtinStepMeta.http.pinnedOptional,
  secretFields: ['headers'],
  textField: 'text',
  outputs: httpOutputs,
  runProblems: httpRunProblems,
})
