import { JudgeflowError, type ErrorCode } from '~~/engine/errors'

/** What a JudgeflowError is as an HTTP error: status, reason phrase, `data` and extra headers. */
export interface HttpAnswer {
  statusCode: number
  statusMessage: string
  data?: unknown
  headers?: Record<string, number>
}

/** What the request adds to the answer: the versions its If-Match header accepts (see versions.ts). */
export interface AnsweredRequest {
  ifMatch?: number[]
}

interface Row {
  status: number | ((error: JudgeflowError, request: AnsweredRequest) => number)
  /** The body's `data`; none when absent. */
  data?: (error: JudgeflowError) => unknown
  retryAfterS?: (error: JudgeflowError) => number
}

const REASONS: Record<number, string> = {
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 408: 'Request Timeout', 409: 'Conflict', 412: 'Precondition Failed',
  413: 'Payload Too Large', 415: 'Unsupported Media Type', 429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway',
}

/** Seconds a client refused for a full run queue is asked to wait before trying again. */
const QUEUE_RETRY_AFTER_S = 5

const codeOnly = (error: JudgeflowError) => ({ code: error.code })
const codeAndDetails = (error: JudgeflowError) => ({ code: error.code, details: error.details })
const detailsOnly = (error: JudgeflowError) => error.details
const details = (error: JudgeflowError) => (error.details ?? {}) as Record<string, unknown>

/**
 * The one table from error codes to HTTP. Codes not listed answer by their category: a user error
 * is a 400 with its code and details, a provider error a 502 with its code; a system error is not
 * answered here (a 500 whose message is not shown, logged by Nitro).
 */
const BY_CODE: Partial<Record<ErrorCode, Row>> = {
  INVALID_BODY: { status: 400, data: detailsOnly },
  INVALID_QUERY: { status: 400, data: detailsOnly },
  UNAUTHORIZED: { status: 401 },
  FORBIDDEN: { status: 403 },
  NOT_FOUND: { status: 404 },
  CONFLICT: { status: 409, data: codeOnly },
  NOT_CANCELLABLE: { status: 409, data: codeOnly },
  ROUND_NOT_FINISHED: { status: 409 },
  STILL_RUNNING: { status: 409 },
  // 412 when an If-Match precondition failed (RFC 9110), else 409: the base_version was stale.
  VERSION_CONFLICT: {
    status: (error, { ifMatch }) => (ifMatch !== undefined && !ifMatch.includes(details(error).current_version as number) ? 412 : 409),
    data: error => ({ code: error.code, current_version: details(error).current_version }),
  },
  BODY_TOO_LARGE: { status: 413 },
  BODY_TIMEOUT: { status: 408 },
  // The user's own code failed (threw, hit the time or memory limit): their input, never the server's fault.
  SCRIPT_FAILED: { status: 400, data: codeAndDetails },
  TOO_MANY_RUNS: { status: 429, data: codeOnly, retryAfterS: () => QUEUE_RETRY_AFTER_S },
  TOO_MANY_ATTEMPTS: { status: 429, data: error => ({ code: error.code, ...details(error) }), retryAfterS: error => details(error).retry_after_s as number },
  TOO_MANY_STREAMS: { status: 429 },
  TOO_MANY_SPANS: { status: 429, data: codeAndDetails, retryAfterS: error => details(error).retry_after_s as number },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, data: codeOnly },
  TOO_MANY_EVALUATIONS: { status: 429, data: codeAndDetails, retryAfterS: error => details(error).retry_after_s as number },
  TOO_MANY_IMPORTS: { status: 429, data: codeAndDetails, retryAfterS: error => details(error).retry_after_s as number },
  // A stored record this version cannot read: the server's fault, said plainly.
  STORED_RECORD_INVALID: { status: 500, data: codeAndDetails },
}

const BY_CATEGORY: Record<JudgeflowError['category'], Row | undefined> = {
  user: { status: 400, data: codeAndDetails },
  provider: { status: 502, data: codeOnly },
  system: undefined,
}

/** The HTTP answer for an error, or undefined when it is not a JudgeflowError the table answers. */
export function httpAnswerFor(error: unknown, request: AnsweredRequest = {}): HttpAnswer | undefined {
  if (!(error instanceof JudgeflowError)) return undefined
  const row = BY_CODE[error.code] ?? BY_CATEGORY[error.category]
  if (!row) return undefined
  const statusCode = typeof row.status === 'number' ? row.status : row.status(error, request)
  return {
    statusCode,
    statusMessage: REASONS[statusCode]!,
    ...(row.data ? { data: row.data(error) } : {}),
    ...(row.retryAfterS ? { headers: { 'retry-after': row.retryAfterS(error) } } : {}),
  }
}
