import { parse, TomlError } from 'smol-toml'
import { JudgeflowError } from '../errors'
import { assertJsonShape, tooDeepReason } from './safe-json'

/**
 * TOML from users (metric suites, which are configs: a syntax error is INVALID_CONFIG) is read here and only here. smol-toml reads inline arrays and
 * tables by recursion, bounded by its own depth setting: it is given ours, so it stops at the
 * limit, not at a thousand levels. Dotted keys and table headers nest without recursing; the
 * table that comes out is checked as JSON is.
 */
export function parseTomlChecked(text: string, options: { maxDepth: number, where: string }): Record<string, unknown> {
  let data: Record<string, unknown>
  try {
    // The document is a table, level 1: inline values may nest one level less than the limit.
    data = parse(text, { maxDepth: options.maxDepth - 1 })
  }
  catch (error) {
    if (error instanceof TomlError && /excessively nested/.test(error.message)) {
      throw new JudgeflowError('INVALID_INPUT', `${options.where} ${tooDeepReason(options.maxDepth, `line ${error.line}, column ${error.column}`)}.`, { details: { line: error.line, limit: options.maxDepth } })
    }
    const line = error instanceof TomlError ? error.line : undefined
    throw new JudgeflowError('INVALID_CONFIG', `${options.where} is not valid TOML: ${(error as Error).message.split('\n')[0]}`, { details: { line } })
  }
  assertJsonShape(data, options)
  return data
}
