import type { H3Event } from 'h3'
import { JudgeflowError } from '~~/engine/errors'
import { sessionUser } from './access'
import { judgeflowConfig } from './config'
import { badRequest } from './http'

/**
 * The people of JUDGEFLOW_USERS, who share one token: each signs in by name, and the review API
 * keeps each one's labels under that name. Without the list, a reviewer is the name they type.
 */
export const listedUsers = (): string[] => judgeflowConfig().server.users

const oneOf = (users: string[]) => `one of ${users.map(name => `"${name}"`).join(', ')} (JUDGEFLOW_USERS)`

/** The name a sign-in gives (`user`): required, and one of the list, when the server lists its people; refused otherwise. */
export function signInUser(given: string | undefined): string | undefined {
  const users = listedUsers()
  if (!users.length) {
    if (given !== undefined) throw badRequest([{ path: 'user', message: 'this server lists no people (JUDGEFLOW_USERS): sign in with the token alone' }])
    return undefined
  }
  if (given === undefined) throw badRequest([{ path: 'user', message: `is required: say who you are, ${oneOf(users)}` }])
  if (!users.includes(given)) throw badRequest([{ path: 'user', message: `must be ${oneOf(users)}` }])
  return given
}

/**
 * Who labels, leases or skips: the signed-in person, when the session names one (a body `reviewer`
 * naming anyone else is refused, 403); otherwise — the bearer token, this machine without a token,
 * or a session of no one by name — the body's `reviewer`, which is required and, when the server
 * lists its people, must be one of them.
 */
export function reviewerOf(event: H3Event, given: string | undefined): string {
  const user = sessionUser(event)
  if (user !== undefined) {
    if (given === undefined || given === user) return user
    throw new JudgeflowError('FORBIDDEN', `reviewer: you are signed in as "${user}" and label as yourself only: leave reviewer out, or send "${user}"`)
  }
  const users = listedUsers()
  if (given === undefined) throw badRequest([{ path: 'reviewer', message: users.length ? `is required: ${oneOf(users)}` : 'is required: the name your labels are kept under' }])
  if (users.length && !users.includes(given)) throw badRequest([{ path: 'reviewer', message: `must be ${oneOf(users)}` }])
  return given
}
