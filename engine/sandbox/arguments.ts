import { JudgeflowError } from '../errors'

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

/** The parameter names of a request: its `args` keys, each a plain identifier. */
export function parameterNames(args: Record<string, unknown>): string[] {
  const names = Object.keys(args)
  const wrong = names.find(name => !IDENTIFIER.test(name))
  if (wrong !== undefined) throw new JudgeflowError('INVALID_INPUT', `"${wrong}" cannot name a parameter of the code; use letters, digits and _.`)
  return names
}

/** The JSON of the arguments in order; a value JSON cannot carry is refused before any process starts. */
export function argumentsJson(args: Record<string, unknown>): string {
  try {
    return JSON.stringify(Object.values(args))
  }
  catch (error) {
    throw new JudgeflowError('INVALID_INPUT', `The code's arguments cannot be written as JSON: ${(error as Error).message}.`)
  }
}
