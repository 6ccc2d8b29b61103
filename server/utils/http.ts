import type { H3Event } from 'h3'
import type { z } from 'zod'
import { JudgeflowError, formatPath } from '~~/engine'
import { parseJsonChecked } from '~~/engine/text/safe-json'
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
    throw new JudgeflowError('INVALID_BODY', error.message, { details: { code: error.code, problems: [{ path: path || '(body)', message: error.message }] }, cause: error })
  }
}

/** A 400 listing each bad field: `Invalid body: path: message; …`. */
export function badRequest(problems: FieldProblem[]): JudgeflowError {
  return new JudgeflowError('INVALID_BODY', `Invalid body: ${problems.map(p => `${p.path}: ${p.message}`).join('; ')}`, { details: { problems } })
}

/** Reads and validates the query string; a bad one is a 400 naming each parameter. */
export async function readQueryWith<T>(event: H3Event, schema: z.ZodType<T>): Promise<T> {
  return checkedParameters(schema, getQuery(event), 'query')
}

/** Reads and validates the route's parameters; a bad one is a 400 naming it. */
export async function readParamsWith<T>(event: H3Event, schema: z.ZodType<T>): Promise<T> {
  return checkedParameters(schema, getRouterParams(event, { decode: true }), 'path')
}

/** Reads and validates request headers (by their lower-case names); a bad one is a 400 naming it. */
export async function readHeadersWith<T>(event: H3Event, schema: z.ZodType<T>): Promise<T> {
  return checkedParameters(schema, getRequestHeaders(event), 'header')
}

function checkedParameters<T>(schema: z.ZodType<T>, value: unknown, where: 'query' | 'path' | 'header'): T {
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const problems: FieldProblem[] = parsed.error.issues.map(issue => ({ path: formatPath(issue.path) || `(${where})`, message: issue.message }))
  throw new JudgeflowError('INVALID_QUERY', `Invalid ${where}: ${problems.map(p => `${p.path}: ${p.message}`).join('; ')}`, { details: { problems } })
}

/** A stored JSON value as the answer, whatever its type (h3 would send a string as HTML and null as 204). */
export function jsonAnswer(event: H3Event, value: unknown): string {
  setResponseHeader(event, 'content-type', 'application/json; charset=utf-8')
  return JSON.stringify(value ?? null)
}

export function notFound(what: string, id: string, note?: string): never {
  throw new JudgeflowError('NOT_FOUND', `No ${what} with id "${id}".${note ? ` ${note}` : ''}`)
}

export function routeId(event: H3Event): string {
  return getRouterParam(event, 'id') ?? ''
}
