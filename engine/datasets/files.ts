import { stringify as stringifyCsv } from 'csv-stringify/sync'
import type { z } from 'zod'
import { JudgeflowError } from '../errors'
import { neutraliseCell, restoreCell } from './csv-cells'
import { formatPath } from '../graph/validate'
import { jsonListItemOffsets, lineFinder } from '../text/json-positions'
import { parseCsvChecked } from '../text/safe-csv'
import { DEFAULT_MAX_JSON_DEPTH, parseJsonChecked, readJson } from '../text/safe-json'
import { LineCounter, isMap, isSeq, parseYamlDocument, yamlValue, type YamlNode } from '../text/safe-yaml'
import { datasetCaseSchema, datasetNameSchema, verdicts, type DatasetCase, type Expected } from './schema'
import { asSentence } from '../text/sentence'

/**
 * Dataset files in and out: CSV, JSONL, JSON and YAML in; JSONL and CSV out. A file is read whole
 * or not at all: every bad row is reported with its line and field, and nothing is kept.
 */

export const datasetFormats = ['csv', 'jsonl', 'json', 'yaml'] as const
export type DatasetFormat = (typeof datasetFormats)[number]

/**
 * CSV columns that are not input fields. `reference` is both: it goes to `expected.reference` and the
 * input. `output` is the case's recorded output (recorded-outputs.ts), judged with no generation call.
 */
export const RESERVED_COLUMNS = ['id', 'tags', 'expected_verdict', 'expected_score', 'reference', 'output'] as const

/** The most cases one dataset holds. */
export const MAX_DATASET_CASES = 100_000
/** Problems listed in one error; the rest are counted. */
const MAX_LISTED_PROBLEMS = 20

export interface ParsedDataset {
  /** The name the file gives itself (JSON and YAML `{ name, cases }`), if any. */
  name?: string
  cases: DatasetCase[]
}

export interface ParseOptions {
  /** What the file is called in errors (its name, or "the dataset"). */
  where?: string
  maxDepth?: number
}

interface Problem {
  line: number
  field: string
  message: string
}

/** The format a file name implies: `.csv`, `.jsonl`/`.ndjson`, `.json`, `.yaml`/`.yml`; null when none. */
export function formatFromName(fileName: string): DatasetFormat | null {
  const extension = /\.([a-z]+)$/i.exec(fileName)?.[1]?.toLowerCase()
  if (extension === 'ndjson') return 'jsonl'
  if (extension === 'yml') return 'yaml'
  return (datasetFormats as readonly string[]).includes(extension ?? '') ? extension as DatasetFormat : null
}

/** Reads a dataset file of the given format; a JudgeflowError (INVALID_INPUT) listing every bad row otherwise. */
export function parseDatasetFile(text: string, format: DatasetFormat, options: ParseOptions = {}): ParsedDataset {
  const where = options.where ?? 'the dataset'
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_JSON_DEPTH
  const body = text.charCodeAt(0) === 0xFEFF ? text.slice(1) : text
  const problems: Problem[] = []
  const parsed = format === 'csv'
    ? readCsv(body, where, problems)
    : format === 'jsonl'
      ? readJsonl(body, where, maxDepth, problems)
      : readDocument(body, format, where, maxDepth, problems)
  if (!problems.length) checkIds(parsed.cases, parsed.lineOf, problems)
  if (problems.length) throw rowsRefused(where, problems)
  if (!parsed.cases.length) throw new JudgeflowError('INVALID_INPUT', `${where} has no cases.`)
  if (parsed.cases.length > MAX_DATASET_CASES) {
    throw new JudgeflowError('INVALID_INPUT', `${where} has ${parsed.cases.length} cases, more than the ${MAX_DATASET_CASES} a dataset may hold: split it.`)
  }
  return { name: parsed.name, cases: parsed.cases }
}

/**
 * Cases given as values (an API body, an edit in the table): each checked as a file's row would be,
 * refused whole with each problem named by case number (1-based) and field.
 */
export function checkCases(list: readonly unknown[], where = 'the dataset'): DatasetCase[] {
  const problems: Problem[] = []
  const cases: DatasetCase[] = []
  const numbers: number[] = []
  list.forEach((item, index) => {
    const parsed = validateCase(item, index + 1, index + 1, problems)
    if (parsed) {
      cases.push(parsed)
      numbers.push(index + 1)
    }
  })
  if (!problems.length) checkIds(cases, i => numbers[i]!, problems, 'case')
  if (problems.length) throw rowsRefused(where, problems, 'case')
  if (cases.length > MAX_DATASET_CASES) {
    throw new JudgeflowError('INVALID_INPUT', `${where} has ${cases.length} cases, more than the ${MAX_DATASET_CASES} a dataset may hold: split it.`)
  }
  return cases
}

interface ReadResult {
  name?: string
  cases: DatasetCase[]
  /** The line a case starts on, by its index. */
  lineOf: (index: number) => number
}

function readCsv(text: string, where: string, problems: Problem[]): ReadResult {
  type Row = { record: string[], info: { lines: number }, raw: string }
  const rows = parseCsvChecked<Row>(text, { info: true, raw: true, skip_empty_lines: true, relax_column_count: false }, where)
  const [header, ...records] = rows
  if (!header) return { cases: [], lineOf: () => 1 }
  const columns = header.record.map(name => restoreCell(name.trim()))
  const seen = new Set<string>()
  columns.forEach((name, index) => {
    if (!name) problems.push({ line: 1, field: `column ${index + 1}`, message: 'has no name in the header row' })
    else if (seen.has(name)) problems.push({ line: 1, field: name, message: 'is a column twice in the header row' })
    else if (name === '__proto__') problems.push({ line: 1, field: name, message: 'is a reserved name' })
    seen.add(name)
  })
  if (problems.length) return { cases: [], lineOf: () => 1 }
  const cases: DatasetCase[] = []
  const lines: number[] = []
  for (const { record, info, raw } of records) {
    const line = info.lines - newlinesWithin(raw)
    const input: Record<string, unknown> = {}
    const expected: Expected = {}
    let id: string | undefined
    let tags: string[] | undefined
    let output: string | undefined
    record.forEach((written, index) => {
      const column = columns[index]!
      const cell = restoreCell(written)
      const value = cell.trim()
      switch (column) {
        case 'id':
          if (value) id = value
          break
        case 'tags':
          if (value) tags = value.split(/[;,]/).map(tag => tag.trim()).filter(Boolean)
          break
        case 'expected_verdict':
          if (!value) break
          if ((verdicts as readonly string[]).includes(value.toLowerCase())) expected.verdict = value.toLowerCase() as Expected['verdict']
          else problems.push({ line, field: column, message: `"${clip(value)}" is not a verdict: use pass or fail` })
          break
        case 'expected_score': {
          if (!value) break
          const score = Number(value)
          if (Number.isFinite(score) && score >= 0 && score <= 1) expected.score = score
          else problems.push({ line, field: column, message: `"${clip(value)}" is not a score between 0 and 1` })
          break
        }
        case 'reference':
          if (!value) break
          expected.reference = cell
          input.reference = cell
          break
        case 'output':
          // An empty cell cannot tell an empty answer from a missing one: neither is guessed.
          if (value) output = cell
          else problems.push({ line, field: column, message: `is empty${id ? ` for case "${clip(id)}"` : ''}: every case needs its recorded output (to judge an empty answer, give the case in JSONL with "output": "")` })
          break
        default:
          // An empty cell leaves the field out, so the workflow's default or required check applies.
          if (value) input[column] = cell
      }
    })
    cases.push(finishCase({ id, input, expected, tags, output }, line, cases.length + 1, problems))
    lines.push(line)
  }
  return { cases, lineOf: index => lines[index]! }
}

function readJsonl(text: string, where: string, maxDepth: number, problems: Problem[]): ReadResult {
  const cases: DatasetCase[] = []
  const lines: number[] = []
  let position = 0
  text.split('\n').forEach((rowText, index) => {
    const line = index + 1
    if (!rowText.trim()) return
    const read = readJson(rowText, maxDepth)
    if (!read.ok) return problems.push({ line, field: '(row)', message: read.reason })
    const value = read.value
    const parsed = validateCase(value, ++position, line, problems)
    if (parsed) {
      cases.push(parsed)
      lines.push(line)
    }
  })
  return { cases, lineOf: index => lines[index]! }
}

/**
 * JSON or YAML: `{ name, cases: [...] }` or a bare list. JSON is read by JSON.parse, which is many
 * times faster than the YAML parser; the lines of its cases are found only for a message.
 */
function readDocument(text: string, format: 'json' | 'yaml', where: string, maxDepth: number, problems: Problem[]): ReadResult {
  const isJson = format === 'json'
  const lineCounter = new LineCounter()
  const document = isJson ? undefined : parseYamlDocument(text, { maxDepth, where, lineCounter })
  const value = document ? yamlValue(document, { maxDepth, where }) : parseJsonChecked(text, { maxDepth, where })
  let list: unknown
  let name: string | undefined
  if (Array.isArray(value)) {
    list = value
  }
  else if (value && typeof value === 'object' && Array.isArray((value as { cases?: unknown }).cases)) {
    const { cases, name: fileName, ...rest } = value as { cases: unknown[], name?: unknown }
    const unknownKeys = Object.keys(rest)
    if (unknownKeys.length) throw new JudgeflowError('INVALID_INPUT', `${where}: unknown top-level key(s) ${unknownKeys.join(', ')}; a dataset file holds "name" and "cases".`)
    if (fileName !== undefined) {
      const checked = datasetNameSchema.safeParse(fileName)
      if (!checked.success) throw new JudgeflowError('INVALID_INPUT', asSentence(`${where}: name ${checked.error.issues[0]!.message}`))
      name = checked.data
    }
    list = cases
  }
  else {
    throw new JudgeflowError('INVALID_INPUT', `${where}: expected a list of cases or { "name": …, "cases": [ … ] }.`)
  }
  const lineOf = isJson ? jsonLines(text, Array.isArray(value)) : yamlLines(document!.contents, Array.isArray(value), lineCounter)
  const cases: DatasetCase[] = []
  const found: Problem[] = []
  ;(list as unknown[]).forEach((item, index) => {
    // Checked with the position in place of the line: the line is looked up only for a problem.
    const parsed = validateCase(item, index + 1, index + 1, found)
    if (parsed) cases.push(parsed)
  })
  for (const problem of found) problems.push({ ...problem, line: lineOf(problem.line - 1) })
  return { name, cases, lineOf }
}

/** The line each item of a JSON dataset starts on, by index. */
function jsonLines(text: string, bareList: boolean): (index: number) => number {
  let offsets: number[] | undefined
  const lineAt = lineFinder(text)
  return (index) => {
    offsets ??= jsonListItemOffsets(text, bareList ? undefined : 'cases')
    return offsets[index] === undefined ? index + 1 : lineAt(offsets[index]!)
  }
}

/** The line each item of a YAML dataset starts on, by index. */
function yamlLines(contents: unknown, bareList: boolean, lineCounter: LineCounter): (index: number) => number {
  const node = bareList ? contents : isMap(contents) ? contents.get('cases', true) : undefined
  const items = isSeq(node) ? node.items as YamlNode[] : []
  return (index) => {
    const offset = items[index]?.range?.[0]
    return offset === undefined ? index + 1 : lineCounter.linePos(offset).line
  }
}

/** A case object from JSON, JSONL or YAML; without an id it gets `case-<position>` (1-based, among the file's cases). */
function validateCase(value: unknown, position: number, line: number, problems: Problem[]): DatasetCase | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    problems.push({ line, field: '(row)', message: 'is not a case object { "id", "input", "expected", "tags" }' })
    return null
  }
  const withId = (value as { id?: unknown }).id === undefined ? { ...value, id: `case-${position}` } : value
  const parsed = datasetCaseSchema.safeParse(withId)
  if (parsed.success) return parsed.data
  for (const issue of parsed.error.issues) problems.push({ line, field: formatPath(issue.path as Array<string | number>) || '(row)', message: issueMessage(issue) })
  return null
}

function finishCase(
  fields: { id?: string, input: Record<string, unknown>, expected: Expected, tags?: string[], output?: string },
  line: number,
  position: number,
  problems: Problem[],
): DatasetCase {
  const draft: DatasetCase = { id: fields.id ?? `case-${position}`, input: fields.input }
  if (Object.keys(fields.expected).length) draft.expected = fields.expected
  if (fields.tags?.length) draft.tags = fields.tags
  if (fields.output !== undefined) draft.output = fields.output
  const parsed = datasetCaseSchema.safeParse(draft)
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push({ line, field: formatPath(issue.path as Array<string | number>) || '(row)', message: issueMessage(issue) })
  }
  return draft
}

function checkIds(cases: DatasetCase[], lineOf: (index: number) => number, problems: Problem[], unit: 'line' | 'case' = 'line'): void {
  const first = new Map<string, number>()
  cases.forEach((item, index) => {
    const earlier = first.get(item.id)
    if (earlier === undefined) return first.set(item.id, index)
    const where = unit === 'line' ? `the case on line ${lineOf(earlier)}` : `case ${lineOf(earlier)}`
    problems.push({ line: lineOf(index), field: 'id', message: `"${clip(item.id)}" is already the id of ${where}; ids are unique within a dataset` })
  })
}

function rowsRefused(where: string, problems: Problem[], unit: 'line' | 'case' = 'line'): JudgeflowError {
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS).map(p => `${unit} ${p.line}, ${p.field}: ${p.message}`)
  const more = problems.length > MAX_LISTED_PROBLEMS ? `; and ${problems.length - MAX_LISTED_PROBLEMS} more` : ''
  const noun = problems.length === 1 ? 'a problem' : `${problems.length} problems`
  return new JudgeflowError('INVALID_INPUT', asSentence(`${where} has ${noun}, so nothing was imported: ${listed.join('; ')}${more}`), {
    details: { problems: problems.slice(0, MAX_LISTED_PROBLEMS) },
  })
}

function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown key(s) ${issue.keys.join(', ')}`
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'is required'
  return issue.message
}

function newlinesWithin(raw: string): number {
  // Skipped empty lines before the record are in its raw text, but not part of it.
  const body = raw.replace(/^(?:[ \t]*\r?\n)+/, '').replace(/\r?\n$/, '')
  let count = 0
  for (let i = 0; i < body.length; i++) if (body.charCodeAt(i) === 10) count++
  return count
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

/** The cases as JSONL, one case per line, in order. */
export function toJsonl(cases: readonly DatasetCase[]): string {
  return cases.map(item => JSON.stringify(item)).join('\n') + (cases.length ? '\n' : '')
}

/**
 * The cases as CSV: `id`, the input fields in the order they first appear, then `tags` (joined
 * with `;`), `expected_verdict`, `expected_score` and `reference`. Input values that are not
 * text are written as JSON. An input `reference` equal to the expected one is written once.
 * No cell opens a formula (see csv-cells.ts); reading the file back gives the cells as they were.
 */
export function toCsv(cases: readonly DatasetCase[]): string {
  const fields: string[] = []
  const known = new Set<string>()
  for (const item of cases) {
    for (const key of Object.keys(item.input)) {
      if (key === 'reference' && item.input.reference === item.expected?.reference) continue
      if (!known.has(key)) {
        known.add(key)
        fields.push(key)
      }
    }
  }
  const clash = fields.find(field => (RESERVED_COLUMNS as readonly string[]).includes(field))
  if (clash) {
    const item = cases.find(c => Object.hasOwn(c.input, clash))!
    throw new JudgeflowError('INVALID_INPUT', `case "${item.id}": the input field "${clash}" cannot be written to CSV, where ${clash === 'reference' ? '"reference" is also the expected reference, and the two differ' : `"${clash}" is a reserved column`}; export to JSONL instead.`)
  }
  // Recorded outputs are written when the cases hold them: text only, as a CSV cell reads back.
  const outputs = cases.some(c => c.output !== undefined)
  const notText = outputs && cases.find(c => typeof c.output !== 'string' || c.output === '')
  if (notText) throw new JudgeflowError('INVALID_INPUT', `case "${notText.id}": its recorded output ${notText.output === undefined ? 'is missing' : notText.output === '' ? 'is empty' : 'is an object'}, which the CSV output column cannot hold; export to JSONL instead.`)
  const rows = cases.map(item => [
    neutraliseCell(item.id),
    ...fields.map(field => cellText(item.input[field])),
    neutraliseCell((item.tags ?? []).join(';')),
    item.expected?.verdict ?? '',
    item.expected?.score === undefined ? '' : String(item.expected.score),
    item.expected?.reference === undefined ? cellText(item.input.reference) : neutraliseCell(item.expected.reference),
    ...(outputs ? [neutraliseCell(item.output as string)] : []),
  ])
  return stringifyCsv([['id', ...fields.map(neutraliseCell), 'tags', 'expected_verdict', 'expected_score', 'reference', ...(outputs ? ['output'] : [])], ...rows])
}

/** A number is written as one (a spreadsheet reads `-1` as minus one); any text, JSON included, is neutralised. */
function cellText(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'number') return String(value)
  return neutraliseCell(typeof value === 'string' ? value : JSON.stringify(value))
}
