import { and, asc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm'
import { PREVIEW_CHARS, type ResponseLimits, type TruncatedValue } from '../engine/executor/truncated'
import type { StepRunRow } from './repositories/runs'
import type { RunView, StoredValueRef } from '../core/rows'
export type { BoundedRun, RunView, StoredValueRef } from '../core/rows'

/**
 * A run as one answer carries it (GET /api/runs/:id). Each stored input and output is carried
 * whole while it is at most `limits.value` characters of JSON and the values carried so far stay
 * within `limits.total` (the run's own first, then the latest attempts); any other becomes a marker
 * with its size and the start of its JSON. Both stores read sizes and previews in SQL first, then
 * only the values chosen, so an answer never loads more than the limits, however large the run.
 */

/** What the first read gives of a stored value: its size in characters of JSON and its start. */
export interface ValueSize {
  size: number | null
  head: string | null
}

/** A step row without its values, with their sizes. */
export type StepSizes = Omit<StepRunRow, 'input' | 'output'> & { input: ValueSize, output: ValueSize }

/** Which values are carried whole: the run's own (`run`), then step rows' by id, latest attempts first. */
export function chooseWhole(run: { input: ValueSize, output: ValueSize }, steps: readonly StepSizes[], limits: ResponseLimits) {
  let total = 0
  const fits = (value: ValueSize) => {
    if (value.size === null) return true
    if (value.size > limits.value || total + value.size > limits.total) return false
    total += value.size
    return true
  }
  const chosen = { run: { input: fits(run.input), output: fits(run.output) }, input: [] as number[], output: [] as number[] }
  for (const step of [...steps].sort((a, b) => b.attempt - a.attempt || a.id - b.id)) {
    if (fits(step.input)) chosen.input.push(step.id)
    if (fits(step.output)) chosen.output.push(step.id)
  }
  return chosen
}

/** The stored value when it was read, its marker when it was not. */
export function valueOrMarker(read: boolean, value: unknown, sized: ValueSize): unknown {
  if (sized.size === null) return null
  return read ? value : marker(sized)
}

function marker({ size, head }: ValueSize): TruncatedValue {
  return { truncated: true, size: size ?? 0, preview: (head ?? '').slice(0, PREVIEW_CHARS) }
}

/** The step rows in order, each value whole when read (`values` by row id), else its marker. */
export function assembleSteps(
  steps: readonly StepSizes[],
  values: ReadonlyMap<number, { input?: unknown, output?: unknown }>,
  chosen: { input: number[], output: number[] },
): StepRunRow[] {
  const input = new Set(chosen.input)
  const output = new Set(chosen.output)
  return steps.map(step => ({
    ...step,
    input: valueOrMarker(input.has(step.id), values.get(step.id)?.input, step.input),
    output: valueOrMarker(output.has(step.id), values.get(step.id)?.output, step.output),
  }))
}

/**
 * The tables and the one thing that differs between the stores: a JSON column as text (SQLite
 * stores text already; PostgreSQL's json needs a cast). The query builders of both drizzle dialects
 * take the same calls; `rows` runs a built query on either (awaited on PostgreSQL, `.all()` on SQLite).
 */
export interface ViewDialect {
  db: any
  runs: any
  stepRuns: any
  text: (column: any) => SQL
  rows: (query: any) => Promise<any[]>
}

/** The run with its steps within the answer's limits; null when there is no such run. */
export async function viewRun(d: ViewDialect, id: string, limits: ResponseLimits): Promise<RunView | null> {
  const size = (column: unknown) => sql<number | null>`length(${d.text(column)})`
  const head = (column: unknown) => sql<string | null>`substr(${d.text(column)}, 1, ${PREVIEW_CHARS})`
  const sizes = (table: any) => ({ inputSize: size(table.input), inputHead: head(table.input), outputSize: size(table.output), outputHead: head(table.output) })
  const { input: _input, output: _output, ...runColumns } = getTableColumns(d.runs)
  const [run] = await d.rows(d.db.select({ ...runColumns, ...sizes(d.runs) }).from(d.runs).where(eq(d.runs.id, id)))
  if (!run) return null
  const { input: _i, output: _o, ...stepColumns } = getTableColumns(d.stepRuns)
  const rows = await d.rows(d.db.select({ ...stepColumns, ...sizes(d.stepRuns) }).from(d.stepRuns).where(eq(d.stepRuns.runId, id)).orderBy(asc(d.stepRuns.id)))
  const steps: StepSizes[] = rows.map(({ inputSize, inputHead, outputSize, outputHead, ...row }) => ({
    ...row, input: { size: inputSize, head: inputHead }, output: { size: outputSize, head: outputHead },
  }))
  const { inputSize, inputHead, outputSize, outputHead, ...runRow } = run
  const runSizes = { input: { size: inputSize, head: inputHead }, output: { size: outputSize, head: outputHead } }
  const chosen = chooseWhole(runSizes, steps, limits)
  const when = (read: boolean | number[], column: any, table: any) => (Array.isArray(read)
    ? sql`case when ${inArray(table.id, read.length ? read : [-1])} then ${column} end`.mapWith(column)
    : sql`case when ${read ? sql`1 = 1` : sql`1 = 0`} then ${column} end`.mapWith(column))
  const [whole] = chosen.run.input || chosen.run.output
    ? await d.rows(d.db.select({ input: when(chosen.run.input, d.runs.input, d.runs), output: when(chosen.run.output, d.runs.output, d.runs) })
        .from(d.runs).where(eq(d.runs.id, id)))
    : []
  const ids = [...new Set([...chosen.input, ...chosen.output])]
  const values = new Map<number, { input?: unknown, output?: unknown }>(ids.length
    ? (await d.rows(d.db.select({
        id: d.stepRuns.id, input: when(chosen.input, d.stepRuns.input, d.stepRuns), output: when(chosen.output, d.stepRuns.output, d.stepRuns),
      }).from(d.stepRuns).where(inArray(d.stepRuns.id, ids)))).map(row => [row.id, row])
    : [])
  return {
    run: {
      ...runRow,
      input: valueOrMarker(chosen.run.input, whole?.input, runSizes.input),
      output: valueOrMarker(chosen.run.output, whole?.output, runSizes.output),
    },
    steps: assembleSteps(steps, values, chosen),
  }
}

export async function readStoredValue(d: ViewDialect, runId: string, ref: StoredValueRef): Promise<{ value: unknown } | undefined> {
  const [row] = ref.nodeId === undefined
    ? await d.rows(d.db.select({ value: d.runs[ref.field] }).from(d.runs).where(eq(d.runs.id, runId)))
    : await d.rows(d.db.select({ value: d.stepRuns[ref.field] }).from(d.stepRuns)
        .where(and(eq(d.stepRuns.runId, runId), eq(d.stepRuns.nodeId, ref.nodeId), eq(d.stepRuns.attempt, ref.attempt ?? 0))))
  return row && { value: row.value ?? null }
}
