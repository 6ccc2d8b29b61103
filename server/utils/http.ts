import type { H3Event } from 'h3'
import type { z } from 'zod'
import { JudgeflowError, formatPath } from '../../engine'

export interface FieldProblem {
  path: string
  message: string
}

/** Reads and validates a JSON body; a bad body is a 400 naming each field. */
export async function readBodyWith<T>(event: H3Event, schema: z.ZodType<T>): Promise<T> {
  let body: unknown
  try {
    body = await readBody(event)
  }
  catch {
    throw createError({ statusCode: 400, statusMessage: 'Bad Request', message: 'The request body is not valid JSON.' })
  }
  const parsed = schema.safeParse(body ?? {})
  if (parsed.success) return parsed.data
  const problems: FieldProblem[] = parsed.error.issues.map(issue => ({ path: formatPath(issue.path) || '(body)', message: issue.message }))
  throw createError({
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
  if (error instanceof JudgeflowError && error.code === 'NOT_CANCELLABLE') {
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
