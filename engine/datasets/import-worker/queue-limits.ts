import { JudgeflowError } from '../../errors'

export const QUEUED_IMPORTS_VARIABLE = 'JUDGEFLOW_MAX_QUEUED_IMPORTS'
export const IMPORTS_PER_CLIENT_VARIABLE = 'JUDGEFLOW_MAX_IMPORTS_PER_CLIENT'
/** Imports that may wait for the import worker at once (JUDGEFLOW_MAX_QUEUED_IMPORTS). */
export const DEFAULT_MAX_QUEUED_IMPORTS = 8
/** Imports one client may have waiting or being read at once (JUDGEFLOW_MAX_IMPORTS_PER_CLIENT). */
export const DEFAULT_MAX_IMPORTS_PER_CLIENT = 2

export interface ImportQueueLimits {
  maxQueued: number
  maxPerClient: number
  /** The import time limit: by then the import being read has finished or been stopped (Retry-After). */
  timeLimitMs: number
}

/**
 * Why a client's new import may not wait for the worker, if it may not: the client already has
 * `maxPerClient` imports waiting or being read (its share), or `maxQueued` imports already wait.
 * A refusal is TOO_MANY_IMPORTS (429 with Retry-After), naming the limit and its variable.
 */
export function importQueueRefusal(own: number, waiting: number, limits: ImportQueueLimits): JudgeflowError | undefined {
  const retryAfterS = Math.ceil(limits.timeLimitMs / 1000)
  if (own >= limits.maxPerClient) {
    return tooMany(`You already have ${own} import${own === 1 ? '' : 's'} waiting or being read, the most one client may have (${IMPORTS_PER_CLIENT_VARIABLE}, ${limits.maxPerClient}): try again in ${retryAfterS} s, once one is done.`,
      IMPORTS_PER_CLIENT_VARIABLE, limits.maxPerClient, retryAfterS)
  }
  if (waiting >= limits.maxQueued) {
    const already = waiting === 1 ? '1 import is' : `${waiting} imports are`
    return tooMany(`${already} already waiting for the import worker, the most ${QUEUED_IMPORTS_VARIABLE} allows (${limits.maxQueued}): try again in ${retryAfterS} s, or raise ${QUEUED_IMPORTS_VARIABLE}.`,
      QUEUED_IMPORTS_VARIABLE, limits.maxQueued, retryAfterS)
  }
  return undefined
}

function tooMany(message: string, variable: string, limit: number, retryAfterS: number): JudgeflowError {
  return new JudgeflowError('TOO_MANY_IMPORTS', message, { details: { variable, limit, retry_after_s: retryAfterS } })
}
