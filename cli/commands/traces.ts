import { parseArgs } from 'node:util'
import { DEFAULT_DB_PATH, type JudgeflowConfig } from '../../core/config'
import { ingestSpans } from '../../core/online/ingest'
import type { OnlineDecisionStatus } from '../../core/online-rows'
import { JudgeflowError } from '../../engine/errors'
import { readOtlpTraces } from '../../engine/online/otlp'
import { readJson } from '../../engine/text/safe-json'
import { openApp } from '../app'
import { readTextFile, type Io } from '../io'
import { COMMANDS } from '../help/commands'
import { TRACES_USAGE } from '../usage'

/**
 * `judgeflow traces import <otlp.json>`: a file of OTLP/JSON export requests (one JSON document,
 * or one per line as the OpenTelemetry Collector's file exporter writes them) stored as POST
 * /v1/traces stores them — the GenAI spans, each enabled online rule's decision — in the database
 * the server uses, which scores the queued ones. The span and attribute limits are the endpoint's,
 * but a file may hold any number of spans. Exit 0 imported, 2 invalid input.
 */
export async function tracesCommand(args: string[], io: Io, config: JudgeflowConfig): Promise<number> {
  const [action, ...rest] = args
  const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: COMMANDS.traces.flags })
  if (action !== 'import' || positionals.length !== 1) {
    io.err(`traces needs ${action === 'import' ? 'the file to import' : 'import and the file to import'}: ${TRACES_USAGE}`)
    return 2
  }
  const requests = exportRequests(readTextFile(positionals[0]!, 'the spans file'), positionals[0]!, config.maxJsonDepth)
  const app = await openApp(config, values.db || config.db.path || DEFAULT_DB_PATH)
  const decided: Partial<Record<OnlineDecisionStatus, number>> = {}
  let spans = 0
  let rejected = 0
  const reasons = new Set<string>()
  try {
    for (const request of requests) {
      const read = readOtlpTraces(request, { ...config.otlp, maxSpans: Number.MAX_SAFE_INTEGER })
      const stored = await ingestSpans(app.store, read.spans)
      spans += stored.spans
      rejected += read.rejected.count
      for (const reason of read.rejected.reasons) reasons.add(reason)
      for (const [status, count] of Object.entries(stored.decisions) as Array<[OnlineDecisionStatus, number]>) decided[status] = (decided[status] ?? 0) + count
    }
  }
  finally {
    await app.close(0)
  }
  const decisions = Object.entries(decided).map(([status, count]) => `${count} ${status}`).join(', ') || 'none (no enabled rule, or no span with an input or an output)'
  io.out(`${spans} GenAI span${spans === 1 ? '' : 's'} imported; decisions: ${decisions}.`
    + `${rejected ? `\n${rejected} span${rejected === 1 ? '' : 's'} rejected: ${[...reasons].join('; ')}.` : ''}`
    + `${decided.queued ? '\nThe server (judgeflow serve on this database) scores the queued ones.' : ''}`)
  return 0
}

/** The file's export requests: the whole text as one, else each line as one. */
function exportRequests(text: string, file: string, maxDepth: number): unknown[] {
  const whole = readJson(text, maxDepth)
  if (whole.ok) return [whole.value]
  const lines = text.split('\n').map((line, i) => ({ line: line.trim(), number: i + 1 })).filter(({ line }) => line !== '')
  return lines.map(({ line, number }) => {
    const read = readJson(line, maxDepth)
    if (!read.ok) throw new JudgeflowError('INVALID_INPUT', `${file} is neither one OTLP/JSON export request nor one a line: line ${number} ${read.reason}`)
    return read.value
  })
}
