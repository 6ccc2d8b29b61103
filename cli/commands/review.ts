import { parseArgs } from 'node:util'
import { DEFAULT_DB_PATH, type JudgeflowConfig } from '../../core/config'
import { findQueue } from '../../core/review/calibration'
import { labelledItems, labelledItemsText } from '../../core/review/export'
import { JudgeflowError } from '../../engine/errors'
import { openApp } from '../app'
import type { Io } from '../io'
import { COMMANDS } from '../help/commands'
import { REVIEW_USAGE } from '../usage'

/**
 * `judgeflow review export <queue>`: the items of a review queue (its id or name) people agree on,
 * each with its input, output, the judge's verdict, the consensus label with its votes and the
 * expected verdict and score a dataset would hold, as JSONL (the default) or CSV. Exit 0 printed,
 * 2 invalid input (no such queue).
 */
export async function reviewCommand(args: string[], io: Io, config: JudgeflowConfig): Promise<number> {
  const [action, ...rest] = args
  const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: COMMANDS.review.flags })
  if (action !== 'export' || positionals.length !== 1) {
    io.err(`review needs ${action === 'export' ? 'the queue to export' : 'export and the queue to export'}: ${REVIEW_USAGE}`)
    return 2
  }
  const format = values.format ?? 'jsonl'
  if (format !== 'jsonl' && format !== 'csv') throw new JudgeflowError('INVALID_INPUT', `--format must be jsonl or csv, not "${format}"`)
  const app = await openApp(config, values.db || config.db.path || DEFAULT_DB_PATH)
  try {
    const queue = await findQueue(app.store, positionals[0]!)
    if (!queue) throw new JudgeflowError('INVALID_INPUT', `there is no review queue "${positionals[0]}" in ${values.db || config.db.path || DEFAULT_DB_PATH}`)
    const items = labelledItems(queue, await app.store.review.items(queue.id), await app.store.review.labels(queue.id))
    const text = labelledItemsText(items, format)
    if (text) io.out(text.replace(/\n$/, ''))
  }
  finally {
    await app.close(0)
  }
  return 0
}
