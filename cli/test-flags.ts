import { randomInt } from 'node:crypto'
import { parseArgs } from 'node:util'
import { MAX_CASE_DELAY_MS } from '../core/datasets'
import { JudgeflowError } from '../engine'
import { checkBaselineReport, filterCases, type DatasetCase } from '../engine/datasets'
import { readJsonFile } from './io'
import { RUN_FLAGS } from './help/test-flags'

export { RUN_FLAGS_USAGE } from './usage'

/** The most cases `--filter-first-n` and `--filter-sample` take (a dataset holds no more). */
const MAX_FILTER_COUNT = 1_000_000

/** The values of `judgeflow test`'s flags that choose the cases and how they run (declared with their help in cli/help/test-flags.ts). */
type RunFlagValues = { [K in keyof typeof RUN_FLAGS]?: K extends 'var' ? string[] : K extends 'no-cache' ? boolean : string }

export interface RunFlags {
  concurrency?: number
  delay_ms?: number
  cache?: false
  vars?: Record<string, string>
}

/** The run options the flags set, each refused with a sentence naming the flag when malformed. */
export function runFlagsOf(values: RunFlagValues): RunFlags {
  const concurrency = numberFlag(values.concurrency, 'concurrency', { min: 1, max: 64, whole: true })
  const alias = numberFlag(values['max-concurrency'], 'max-concurrency', { min: 1, max: 64, whole: true })
  if (concurrency !== undefined && alias !== undefined && concurrency !== alias) {
    throw new JudgeflowError('INVALID_INPUT', `--max-concurrency is another name for --concurrency: give one of them, not ${concurrency} and ${alias}.`)
  }
  const delay = numberFlag(values.delay, 'delay', { min: 0, max: MAX_CASE_DELAY_MS, whole: true })
  const flags: RunFlags = {}
  // A delay between cases means one case at a time, unless a concurrency is asked for.
  const chosen = concurrency ?? alias ?? (delay ? 1 : undefined)
  if (chosen !== undefined) flags.concurrency = chosen
  if (delay) flags.delay_ms = delay
  if (values['no-cache']) flags.cache = false
  if (values.var?.length) flags.vars = varsOf(values.var)
  return flags
}

function varsOf(given: readonly string[]): Record<string, string> {
  const vars: Record<string, string> = {}
  for (const pair of given) {
    const at = pair.indexOf('=')
    const key = at < 0 ? '' : pair.slice(0, at).trim()
    if (!key || key === '__proto__') throw new JudgeflowError('INVALID_INPUT', `--var takes name=value (an input field and its text), not "${pair}".`)
    vars[key] = pair.slice(at + 1)
  }
  return vars
}

/** The cases the --filter-* flags choose; `seed` is the one a sample was drawn with, so a run can be drawn again. */
export function filteredCases(
  values: RunFlagValues, dataset: { name: string, cases: DatasetCase[] }, maxDepth: number,
): { cases: DatasetCase[], seed?: number } {
  const firstN = numberFlag(values['filter-first-n'], 'filter-first-n', { min: 1, max: MAX_FILTER_COUNT, whole: true })
  const sample = numberFlag(values['filter-sample'], 'filter-sample', { min: 1, max: MAX_FILTER_COUNT, whole: true })
  let seed = numberFlag(values.seed, 'seed', { min: 0, max: 2 ** 32 - 1, whole: true })
  if (seed !== undefined && sample === undefined) throw new JudgeflowError('INVALID_INPUT', '--seed makes --filter-sample\'s draw repeatable: give it with --filter-sample N.')
  if (sample !== undefined) seed ??= randomInt(0, 2 ** 32 - 1)
  const file = values['filter-failing']
  const failing = file
    ? checkBaselineReport(readJsonFile(file, 'report', maxDepth), { name: dataset.name, caseIds: dataset.cases.map(c => c.id) }, `--filter-failing: the report "${file}"`).results
    : undefined
  if (firstN === undefined && sample === undefined && values['filter-pattern'] === undefined && !failing) return { cases: dataset.cases }
  const cases = filterCases(dataset.cases, { pattern: values['filter-pattern'], firstN, sample, seed, failing })
  return { cases, ...(seed === undefined ? {} : { seed }) }
}

export function numberFlag(raw: string | undefined, flag: string, range: { min: number, max: number, whole?: boolean }): number | undefined {
  if (raw === undefined) return undefined
  const value = Number(raw)
  if (raw.trim() === '' || !Number.isFinite(value) || value < range.min || value > range.max || (range.whole && !Number.isInteger(value))) {
    throw new JudgeflowError('INVALID_INPUT', `--${flag} must be ${range.whole ? 'a whole number' : 'a number'} from ${range.min} to ${range.max}, not "${raw}".`)
  }
  return value
}

/** The file --env-file names, read from a command's arguments before the rest are checked. */
export function envFileOf(args: string[]): string | undefined {
  const { values } = parseArgs({ args, options: { 'env-file': { type: 'string' } }, strict: false, allowPositionals: true })
  const file = values['env-file']
  if (typeof file === 'boolean') throw new JudgeflowError('INVALID_INPUT', '--env-file needs the name of a file of KEY=VALUE lines.')
  return file
}
