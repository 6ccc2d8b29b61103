import { parseArgs } from 'node:util'
import { experimentReport, reportToMarkdown } from '../../engine/experiments'
import { readJsonFile, type Io } from '../io'

/**
 * `judgeflow experiment report <judgments.json> [--markdown]`: the round's statistics and
 * recommendation from judgments alone, as JSON (exit 0) or a readable table.
 */
export function experimentCommand(args: string[], io: Io): number {
  const [sub, ...rest] = args
  if (sub !== 'report') {
    io.err(`experiment needs a subcommand: judgeflow experiment report <judgments.json> [--markdown]${sub ? ` ("${sub}" is not one)` : ''}.`)
    return 2
  }
  const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { markdown: { type: 'boolean' } } })
  if (positionals.length !== 1) {
    io.err('experiment report needs one judgments file: judgeflow experiment report <judgments.json> [--markdown]')
    return 2
  }
  const report = experimentReport(readJsonFile(positionals[0]!, 'judgments'))
  io.out(values.markdown ? reportToMarkdown(report) : JSON.stringify(report, null, 2))
  return 0
}
