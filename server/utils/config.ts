import { JudgeflowError } from '../../engine'

/** The server's limits from the environment, read once at start. */
export interface ServerLimits {
  /** How long a run's lease holds without its process's heartbeat. */
  runLeaseMs: number
  /** Resumes in a row without a new committed step before a run is marked failed. */
  maxResumes: number
  /** Event streams (run and round) one client address may hold open at once. */
  maxStreamsPerClient: number
}

let limits: ServerLimits | undefined

export function serverLimits(env: Record<string, string | undefined> = process.env): ServerLimits {
  limits ??= {
    runLeaseMs: wholeNumber(env, 'JUDGEFLOW_RUN_LEASE_MS', 15_000),
    maxResumes: wholeNumber(env, 'JUDGEFLOW_RUN_MAX_RESUMES', 2),
    maxStreamsPerClient: wholeNumber(env, 'JUDGEFLOW_MAX_SSE_PER_CLIENT', 20),
  }
  return limits
}

function wholeNumber(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name]
  if (raw === undefined || raw.trim() === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 1) {
    throw new JudgeflowError('INVALID_CONFIG', `${name} must be a whole number of at least 1 (it is "${raw}"); unset it for the default, ${fallback}.`)
  }
  return value
}
