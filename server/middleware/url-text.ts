import { JudgeflowError } from '~~/engine/errors'
import { NUL_REFUSAL } from '~~/engine/text/safe-json'

/**
 * A path or query that decodes to a NUL character (`%00`) is refused before any route reads it: an
 * id or a query value holding one would reach the database, and PostgreSQL cannot store it in
 * text. Bodies are checked as they are parsed (readJsonBody).
 */
export default defineEventHandler((event) => {
  if (/%00|\u0000/i.test(event.path)) {
    throw new JudgeflowError('INVALID_INPUT', `The request's path or query is refused: ${NUL_REFUSAL}, written %00 in a URL.`)
  }
})
