import { DrizzleQueryError } from 'drizzle-orm'
import pg from 'pg'
import { JudgeflowError } from '../../engine/errors'

/** What each SQLSTATE class means (the first two characters of the code), as PostgreSQL names them. */
const SQLSTATE_CLASSES: Record<string, string> = {
  '08': 'connection exception',
  '22': 'data exception',
  '23': 'integrity constraint violation',
  '25': 'invalid transaction state',
  '40': 'transaction rollback',
  '42': 'syntax error or access rule violation',
  '53': 'insufficient resources',
  '57': 'operator intervention',
}

/**
 * A failed query as the rest of the application sees it. Drizzle's error message holds the whole
 * statement with its parameters (a case's text, a name), and PostgreSQL's own message may quote a
 * value: either would be stored as a run's error and shown by the API. The error says only which
 * SQLSTATE it was; PostgreSQL's message goes to the server log. Other errors pass as they are.
 */
export function queryFailure(error: unknown): unknown {
  if (error instanceof JudgeflowError) return error
  const cause = error instanceof DrizzleQueryError ? error.cause : error
  if (cause instanceof pg.DatabaseError) {
    const code = cause.code ?? 'unknown'
    const kind = SQLSTATE_CLASSES[code.slice(0, 2)]
    console.error(`judgeflow: PostgreSQL refused a query (SQLSTATE ${code}): ${cause.message}`)
    return new JudgeflowError('INTERNAL', `The PostgreSQL database refused a query (SQLSTATE ${code}${kind ? `, ${kind}` : ''}); the server log says why.`, {
      category: 'system', details: { sqlstate: code },
    })
  }
  if (error instanceof DrizzleQueryError) {
    // Not an answer of the database (the connection, the driver): its message carries no statement.
    return new JudgeflowError('INTERNAL', `The PostgreSQL database could not be queried: ${cause instanceof Error ? cause.message : 'no reason given'}.`, { category: 'system' })
  }
  return error
}

/** The repository with every method's failure passed through queryFailure, whether it throws or rejects. */
export function withQueryFailures<T extends object>(repository: T): T {
  const guarded = {} as Record<string, unknown>
  for (const [name, member] of Object.entries(repository)) {
    if (typeof member !== 'function') {
      guarded[name] = member
      continue
    }
    guarded[name] = (...args: unknown[]) => {
      try {
        const answer: unknown = member.apply(repository, args)
        return answer instanceof Promise ? answer.catch((error: unknown) => { throw queryFailure(error) }) : answer
      }
      catch (error) {
        throw queryFailure(error)
      }
    }
  }
  return guarded as T
}
