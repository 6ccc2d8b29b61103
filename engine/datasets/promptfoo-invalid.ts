import { JudgeflowError } from '../errors'
import { asSentence } from '../text/sentence'

/** A promptfoo config the import refuses: INVALID_INPUT, with the message as one sentence. */
export function invalid(message: string): JudgeflowError {
  return new JudgeflowError('INVALID_INPUT', asSentence(message))
}
