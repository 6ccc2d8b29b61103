import type { z } from 'zod'
import { JudgeflowError } from '../engine/errors'
import { formatPath } from '../engine/graph/validate'

/**
 * A stored JSON value read back through its schema. A record this version cannot read (written
 * by an older one, or edited by hand) is a STORED_RECORD_INVALID error that names the record and
 * each problem, not a raw ZodError.
 */
export function parseStored<T>(schema: z.ZodType<T>, value: unknown, record: string): T {
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const problems = parsed.error.issues.map(issue => ({ path: formatPath(issue.path) || '(record)', message: issue.message }))
  const listed = problems.map(p => `${p.path}: ${p.message}`).join('; ')
  throw new JudgeflowError('STORED_RECORD_INVALID', `The stored ${record} cannot be read: ${listed}. Correct it in the database, or delete it.`, {
    category: 'system', details: { record, problems }, cause: parsed.error,
  })
}
