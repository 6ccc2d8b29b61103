import type { H3Event } from 'h3'
import type { z } from 'zod'
import { JudgeflowError, formatPath } from '../../engine'
import { parseJsonChecked } from '../../engine/text/safe-json'
import { judgeflowConfig } from './config'

export interface FieldProblem {
  path: string
  message: string
}

/**
 * Reads and validates a JSON body; a bad body is a 400 naming each field. The body is parsed here,
 * not by h3, so that a body nested too deep or with a `__proto__` key is refused with its reason
 * and path before any code walks it.
 */
export async function readBodyWith<T>(event: H3Event, schema: z.ZodType<T>): Promise<T> {
  const parsed = schema.safeParse(await readJsonBody(event))
  if (parsed.success) return parsed.data
  throw badRequest(parsed.error.issues.map(issue => ({ path: formatPath(issue.path) || '(body)', message: issue.message })))
}

/** The body as JSON (`{}` when there is none), checked for depth and `__proto__` keys. */
export async function readJsonBody(event: H3Event): Promise<unknown> {
  const text = await readRawBody(event, 'utf8')
  if (!text) return {}
  try {
    return parseJsonChecked(text, { maxDepth: judgeflowConfig().maxJsonDepth, where: 'The request body' }) ?? {}
  }
  catch (error) {
    if (!(error instanceof JudgeflowError)) throw error
    const path = (error.details as { path?: string } | undefined)?.path
    throw createError({ statusCode: 400, statusMessage: 'Bad Request', message: error.message, data: { code: error.code, problems: [{ path: path || '(body)', message: error.message }] } })
  }
}

/** A 400 listing each bad field: `Invalid body: path: message; …`. */
export function badRequest(problems: FieldProblem[]) {
  return createError({
    statusCode: 400,
    statusMessage: 'Bad Request',
    message: `Invalid body: ${problems.map(p => `${p.path}: ${p.message}`).join('; ')}`,
    data: { problems },
  })
}

/** Reads and validates the query string; a bad one is a 400 naming each parameter. */
export async function readQueryWith<T>(event: H3Event, schema: z.ZodType<T>): Promise<T> {
  const parsed = schema.safeParse(getQuery(event))
  if (parsed.success) return parsed.data
  const problems: FieldProblem[] = parsed.error.issues.map(issue => ({ path: formatPath(issue.path) || '(query)', message: issue.message }))
  throw createError({
    statusCode: 400,
    statusMessage: 'Bad Request',
    message: `Invalid query: ${problems.map(p => `${p.path}: ${p.message}`).join('; ')}`,
    data: { problems },
  })
}

export function notFound(what: string, id: string): never {
  throw createError({ statusCode: 404, statusMessage: 'Not Found', message: `No ${what} with id "${id}".` })
}

/** Seconds a client refused for a full run queue is asked to wait before trying again. */
const QUEUE_RETRY_AFTER_S = 5

/** Engine errors the caller can fix become 400s with their code and details; others are rethrown. */
export function asHttpError(error: unknown, event: H3Event): unknown {
  if (error instanceof JudgeflowError && error.code === 'TOO_MANY_RUNS') {
    setResponseHeader(event, 'retry-after', QUEUE_RETRY_AFTER_S)
    return createError({ statusCode: 429, statusMessage: 'Too Many Requests', message: error.message, data: { code: error.code } })
  }
  if (error instanceof JudgeflowError && (error.code === 'NOT_CANCELLABLE' || error.code === 'CONFLICT')) {
    return createError({ statusCode: 409, statusMessage: 'Conflict', message: error.message, data: { code: error.code } })
  }
  if (error instanceof JudgeflowError && error.category === 'user') {
    return createError({ statusCode: 400, statusMessage: 'Bad Request', message: error.message, data: { code: error.code, details: error.details } })
  }
  return error
}

export function routeId(event: H3Event): string {
  return getRouterParam(event, 'id') ?? ''
}
