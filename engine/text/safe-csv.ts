import { parse, type Options } from 'csv-parse/sync'
import { JudgeflowError } from '../errors'

/**
 * CSV from users (dataset files, promptfoo tests) is read here: CSV does not nest, so what is
 * checked is that every error the parser raises becomes a sentence naming `where` and the line.
 */
export function parseCsvChecked<Row>(text: string, options: Options, where: string): Row[] {
  try {
    return parse(text, options) as Row[]
  }
  catch (error) {
    if (error instanceof JudgeflowError) throw error
    const { lines } = error as { lines?: number }
    throw new JudgeflowError('INVALID_INPUT', `${where}${lines ? `, line ${lines}` : ''}: not valid CSV: ${csvReason(error)}.`, { details: { line: lines } })
  }
}

function csvReason(error: unknown): string {
  return (error as Error).message.replace(/ on line \d+$/, '').replace(/\.$/, '')
}
