/** Typed errors shared by the engine, the server and the CLI. */
export type ErrorCategory = 'user' | 'provider' | 'system'

export type ErrorCode
  = | 'INVALID_WORKFLOW'
    | 'INVALID_INPUT'
    | 'INVALID_CONFIG'
    | 'MISSING_API_KEY'
    | 'UNKNOWN_PROVIDER'
    | 'PROVIDER_ERROR'
    | 'PROVIDER_RESPONSE_INVALID'
    | 'STEP_TIMEOUT'
    | 'CANCELLED'
    | 'INVALID_PATTERN'
    | 'STEP_FAILED'
    // User code (a `javascript`/`python` assertion, a transform) threw, ran too long or too large, or cannot run here.
    | 'SCRIPT_FAILED'
    // An HTTP call (engine/http) to the system under test: refused before any connection (scheme, credentials,
    // the server's address policy), failed on the way (network, time limit, status, size, redirects), or its
    // answer path not found in the response.
    | 'HTTP_REFUSED'
    | 'HTTP_FAILED'
    | 'ANSWER_NOT_FOUND'
    | 'TOO_MANY_RUNS'
    | 'TOO_LARGE'
    | 'VERSION_CONFLICT'
    | 'EVALUATION_TIME_LIMIT'
    | 'TOO_MANY_EVALUATIONS'
    | 'TOO_MANY_IMPORTS'
    | 'NOT_CANCELLABLE'
    | 'RESUME_LIMIT'
    | 'CONFLICT'
    | 'INVALID_REFERENCE'
    | 'STORED_RECORD_INVALID'
    | 'INTERNAL'
    // Refusals of the HTTP layer (server/): each has its status in server/utils/http-errors.ts.
    | 'INVALID_BODY'
    | 'INVALID_QUERY'
    | 'NOT_FOUND'
    | 'UNAUTHORIZED'
    | 'FORBIDDEN'
    | 'BODY_TOO_LARGE'
    | 'BODY_TIMEOUT'
    | 'TOO_MANY_ATTEMPTS'
    | 'TOO_MANY_STREAMS'
    | 'TOO_MANY_SPANS'
    | 'UNSUPPORTED_MEDIA_TYPE'
    | 'ROUND_NOT_FINISHED'
    | 'STILL_RUNNING'

export interface SerializedError {
  code: ErrorCode
  category: ErrorCategory
  message: string
  details?: unknown
}

export class JudgeflowError extends Error {
  readonly code: ErrorCode
  readonly category: ErrorCategory
  readonly details?: unknown

  constructor(
    code: ErrorCode,
    message: string,
    options: { category?: ErrorCategory, details?: unknown, cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'JudgeflowError'
    this.code = code
    this.category = options.category ?? 'user'
    this.details = options.details
  }

  toJSON(): SerializedError {
    return {
      code: this.code,
      category: this.category,
      message: this.message,
      ...(this.details === undefined ? {} : { details: this.details }),
    }
  }
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || (error as { code?: string }).code === 'ABORT_ERR')
}

/** Any thrown value as a serializable error; unknown errors become INTERNAL system errors. */
export function serializeError(error: unknown): SerializedError {
  if (error instanceof JudgeflowError) return error.toJSON()
  const message = error instanceof Error ? error.message : String(error)
  return { code: 'INTERNAL', category: 'system', message }
}
