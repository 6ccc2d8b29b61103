import { JudgeflowError } from '../errors'

/** A promptfoo config the import refuses: INVALID_INPUT, with the message as one sentence. */
export function invalid(message: string): JudgeflowError {
  return new JudgeflowError('INVALID_INPUT', `${message.replace(/\.$/, '')}.`)
}
