import { readFileSync } from 'node:fs'
import { JudgeflowError } from '../engine/errors'
import { DEFAULT_MAX_JSON_DEPTH, parseJsonChecked } from '../engine/text/safe-json'

/** Reads and parses a JSON file (nested at most `maxDepth` levels), with one sentence naming the file when it cannot. */
export function readJsonFile(path: string, what: string, maxDepth = DEFAULT_MAX_JSON_DEPTH): unknown {
  return parseJson(readTextFile(path, what), `the ${what} file "${path}"`, maxDepth)
}

/** Reads a text file, with one sentence naming the file when it cannot. */
export function readTextFile(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8')
  }
  catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new JudgeflowError('INVALID_INPUT', `Cannot read the ${what} file "${path}"${code === 'ENOENT' ? ': it does not exist' : `: ${(error as Error).message}`}.`)
  }
}

/** JSON text, refused with a sentence naming `where` when it is not JSON, too deep, or has a `__proto__` key. */
export function parseJson(text: string, where: string, maxDepth = DEFAULT_MAX_JSON_DEPTH): unknown {
  return parseJsonChecked(text, { maxDepth, where: capitalize(where) })
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

export { processIo, type Io } from './process-io'
