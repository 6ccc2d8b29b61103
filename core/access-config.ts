/**
 * Who may come in, read by loadConfig (core/config.ts) with the same checks and messages as every
 * other variable: the token (JUDGEFLOW_TOKEN), how long a sign-in lasts (JUDGEFLOW_SESSION_TTL_HOURS),
 * and the people who share the token (JUDGEFLOW_USERS), so that each signs in, and labels, as themselves.
 */
import { z } from 'zod'
import { JudgeflowError } from '../engine/errors'
import type { variable } from './config-fields'

export const MIN_TOKEN_LENGTH = 32
export const DEFAULT_SESSION_TTL_HOURS = 12
const MAX_SESSION_TTL_HOURS = 24 * 366
/** A person's name is at most this long (it is carried in the session cookie and stored with each label). */
export const MAX_USER_NAME_LENGTH = 64
/** People JUDGEFLOW_USERS may list: a select of names, not a directory. */
export const MAX_USERS = 200
/** Letters (any script), digits, and spaces, dots, apostrophes, hyphens and underscores inside: `Ana Lima`, `o'brien`, `bo_2`. */
const USER_NAME = /^[\p{L}\p{N}](?:[\p{L}\p{M}\p{N} .'_-]*[\p{L}\p{M}\p{N}.])?$/u

export interface AccessSettings {
  /** JUDGEFLOW_TOKEN: required for the API and the UI when the server listens beyond loopback. */
  token?: string
  sessionTtlMs: number
  /** JUDGEFLOW_USERS: the people who share the token, each signing in (and reviewing) by name; empty when unset. */
  users: string[]
}

function usersProblem(raw: string): string | undefined {
  const names = raw.split(',').map(name => name.trim().normalize('NFC'))
  if (names.length > MAX_USERS) return `lists ${names.length} names; at most ${MAX_USERS} may share a server`
  const seen = new Map<string, string>()
  for (const [n, name] of names.entries()) {
    if (!name) return `has an empty name (name ${n + 1} of ${names.length})`
    if (name.length > MAX_USER_NAME_LENGTH) return `has a name longer than ${MAX_USER_NAME_LENGTH} characters ("${name.slice(0, 20)}…")`
    if (!USER_NAME.test(name)) return `has the name "${name}", with a character other than letters, digits, and spaces, dots, apostrophes, hyphens or underscores between them`
    const same = seen.get(name.toLowerCase())
    if (same) return `names the same person twice ("${same}" and "${name}"; names are compared without case)`
    seen.set(name.toLowerCase(), name)
  }
}

/**
 * The names of JUDGEFLOW_USERS's value (comma-separated, each trimmed): throws INVALID_CONFIG naming
 * the variable for an empty name, a name too long or with other characters, a name given twice.
 */
export function parseUsers(raw: string): string[] {
  const problem = usersProblem(raw)
  if (problem) {
    throw new JudgeflowError('INVALID_CONFIG', `JUDGEFLOW_USERS ${problem}: list people's names separated by commas, such as "Ana Lima,Bo"; unset it to let reviewers type their name.`,
      { details: { variable: 'JUDGEFLOW_USERS' } })
  }
  return raw.split(',').map(name => name.trim().normalize('NFC'))
}

/** The access settings from the environment `read` reads. */
export function readAccess(read: ReturnType<typeof variable>): AccessSettings {
  const token = read('JUDGEFLOW_TOKEN', z.string().min(MIN_TOKEN_LENGTH), undefined, `JUDGEFLOW_TOKEN must be at least ${MIN_TOKEN_LENGTH} characters long; generate one with \`openssl rand -hex 32\`.`, { blank: 'empty' })
  const ttlHours = read('JUDGEFLOW_SESSION_TTL_HOURS', z.string().trim().transform(Number).pipe(z.number().gt(0).max(MAX_SESSION_TTL_HOURS)), DEFAULT_SESSION_TTL_HOURS,
    `JUDGEFLOW_SESSION_TTL_HOURS must be a number of hours above 0 and at most ${MAX_SESSION_TTL_HOURS} (default ${DEFAULT_SESSION_TTL_HOURS}).`)
  const users = read('JUDGEFLOW_USERS', z.string(), undefined, '')
  return { token, sessionTtlMs: ttlHours * 3_600_000, users: users === undefined ? [] : parseUsers(users) }
}
