import { describe, expect, it } from 'vitest'
import { JudgeflowError } from '../../../engine'
import { httpAnswerFor } from '../../../server/utils/http-errors'

describe('httpAnswerFor: the one table from error codes to HTTP', () => {
  it('answers a user error with 400, its code and details', () => {
    const error = new JudgeflowError('EVALUATION_TIME_LIMIT', 'too slow', { details: { limit_ms: 1 } })
    expect(httpAnswerFor(error)).toEqual({ statusCode: 400, statusMessage: 'Bad Request', data: { code: 'EVALUATION_TIME_LIMIT', details: { limit_ms: 1 } } })
  })

  it('answers user code that failed (threw, ran too long or too large) with 400, its code and details', () => {
    const error = new JudgeflowError('SCRIPT_FAILED', 'The JavaScript code was stopped after 5000 ms, …', { details: { language: 'JavaScript', reason: 'timeout' } })
    expect(httpAnswerFor(error)).toEqual({ statusCode: 400, statusMessage: 'Bad Request', data: { code: 'SCRIPT_FAILED', details: { language: 'JavaScript', reason: 'timeout' } } })
  })

  it('answers a provider error with 502 and its code; a system error is not answered (a hidden 500)', () => {
    expect(httpAnswerFor(new JudgeflowError('PROVIDER_ERROR', 'down', { category: 'provider', details: { status: 500 } })))
      .toEqual({ statusCode: 502, statusMessage: 'Bad Gateway', data: { code: 'PROVIDER_ERROR' } })
    expect(httpAnswerFor(new JudgeflowError('INTERNAL', 'bug', { category: 'system' }))).toBeUndefined()
    expect(httpAnswerFor(new Error('plain'))).toBeUndefined()
  })

  it('keeps the bodies of refusals as they were: no data, or only the problems', () => {
    expect(httpAnswerFor(new JudgeflowError('NOT_FOUND', 'No run with id "x".'))).toEqual({ statusCode: 404, statusMessage: 'Not Found' })
    expect(httpAnswerFor(new JudgeflowError('FORBIDDEN', 'no'))).toEqual({ statusCode: 403, statusMessage: 'Forbidden' })
    expect(httpAnswerFor(new JudgeflowError('UNAUTHORIZED', 'no'))).toEqual({ statusCode: 401, statusMessage: 'Unauthorized' })
    expect(httpAnswerFor(new JudgeflowError('BODY_TOO_LARGE', 'big'))).toEqual({ statusCode: 413, statusMessage: 'Payload Too Large' })
    expect(httpAnswerFor(new JudgeflowError('BODY_TIMEOUT', 'slow'))).toEqual({ statusCode: 408, statusMessage: 'Request Timeout' })
    expect(httpAnswerFor(new JudgeflowError('TOO_MANY_STREAMS', 'many'))).toEqual({ statusCode: 429, statusMessage: 'Too Many Requests' })
    expect(httpAnswerFor(new JudgeflowError('STILL_RUNNING', 'busy'))).toEqual({ statusCode: 409, statusMessage: 'Conflict' })
    expect(httpAnswerFor(new JudgeflowError('ROUND_NOT_FINISHED', 'wait'))).toEqual({ statusCode: 409, statusMessage: 'Conflict' })
    const problems = [{ path: 'name', message: 'is required' }]
    expect(httpAnswerFor(new JudgeflowError('INVALID_BODY', 'Invalid body: name: is required', { details: { problems } })))
      .toEqual({ statusCode: 400, statusMessage: 'Bad Request', data: { problems } })
    expect(httpAnswerFor(new JudgeflowError('INVALID_QUERY', 'Invalid query', { details: { problems } }))!.data).toEqual({ problems })
  })

  it('asks a client refused for a full queue or wrong tokens to retry after a while', () => {
    expect(httpAnswerFor(new JudgeflowError('TOO_MANY_RUNS', 'full')))
      .toEqual({ statusCode: 429, statusMessage: 'Too Many Requests', data: { code: 'TOO_MANY_RUNS' }, headers: { 'retry-after': 5 } })
    expect(httpAnswerFor(new JudgeflowError('TOO_MANY_ATTEMPTS', 'wait', { details: { retry_after_s: 30 } })))
      .toEqual({ statusCode: 429, statusMessage: 'Too Many Requests', data: { code: 'TOO_MANY_ATTEMPTS', retry_after_s: 30 }, headers: { 'retry-after': 30 } })
    const queueFull = new JudgeflowError('TOO_MANY_EVALUATIONS', 'full', { details: { variable: 'JUDGEFLOW_MAX_QUEUED_EVALUATIONS', limit: 16, retry_after_s: 10 } })
    expect(httpAnswerFor(queueFull)).toEqual({
      statusCode: 429, statusMessage: 'Too Many Requests', headers: { 'retry-after': 10 },
      data: { code: 'TOO_MANY_EVALUATIONS', details: { variable: 'JUDGEFLOW_MAX_QUEUED_EVALUATIONS', limit: 16, retry_after_s: 10 } },
    })
    const importsFull = new JudgeflowError('TOO_MANY_IMPORTS', 'full', { details: { variable: 'JUDGEFLOW_MAX_IMPORTS_PER_CLIENT', limit: 2, retry_after_s: 30 } })
    expect(httpAnswerFor(importsFull)).toEqual({
      statusCode: 429, statusMessage: 'Too Many Requests', headers: { 'retry-after': 30 },
      data: { code: 'TOO_MANY_IMPORTS', details: { variable: 'JUDGEFLOW_MAX_IMPORTS_PER_CLIENT', limit: 2, retry_after_s: 30 } },
    })
  })

  it('answers a conflict with 409, and a version conflict with 412 when the If-Match precondition failed', () => {
    expect(httpAnswerFor(new JudgeflowError('NOT_CANCELLABLE', 'done'))).toEqual({ statusCode: 409, statusMessage: 'Conflict', data: { code: 'NOT_CANCELLABLE' } })
    expect(httpAnswerFor(new JudgeflowError('CONFLICT', 'deleting'))!.statusCode).toBe(409)
    const stale = new JudgeflowError('VERSION_CONFLICT', 'changed', { details: { current_version: 2 } })
    const data = { code: 'VERSION_CONFLICT', current_version: 2 }
    expect(httpAnswerFor(stale, { ifMatch: [1] })).toEqual({ statusCode: 412, statusMessage: 'Precondition Failed', data })
    expect(httpAnswerFor(stale, { ifMatch: [] })!.statusCode).toBe(412)
    expect(httpAnswerFor(stale, {})).toEqual({ statusCode: 409, statusMessage: 'Conflict', data })
    expect(httpAnswerFor(stale, { ifMatch: [2] })!.statusCode).toBe(409)
  })

  it('answers a stored record that no longer parses with a 500 that says which', () => {
    const error = new JudgeflowError('STORED_RECORD_INVALID', 'The stored experiment "e" cannot be read: …', { category: 'system', details: { record: 'experiment "e"' } })
    expect(httpAnswerFor(error)).toEqual({ statusCode: 500, statusMessage: 'Internal Server Error', data: { code: 'STORED_RECORD_INVALID', details: { record: 'experiment "e"' } } })
  })
})
