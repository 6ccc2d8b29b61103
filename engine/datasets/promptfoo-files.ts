import { z } from 'zod'
import { JudgeflowError } from '../errors'
import { formatPath } from '../graph/validate'
import { parseCsvChecked } from '../text/safe-csv'
import { DEFAULT_MAX_JSON_DEPTH, parseJsonChecked, readJson } from '../text/safe-json'
import { parseYamlChecked } from '../text/safe-yaml'
import { assertionFromCell } from './promptfoo-assertions'
import { invalid } from './promptfoo-invalid'
import { promptTemplate } from './promptfoo-workflow'

/** What a promptfoo config points to: tests inline or in files (CSV, YAML, JSON, JSONL), prompts inline or in text files. */

/** Reads a file the config names, relative to the config's folder. */
export type ReadFile = (path: string) => string

/** The files a glob (`*`, `?`, `**`) matches, relative to the config's folder, sorted by path. */
export type ListFiles = (pattern: string) => string[]

const isGlob = (path: string) => /[*?]/.test(path)

const assertionSchema = z.object({ type: z.string().min(1, 'is required') }).passthrough()
export const testSchema = z.object({
  description: z.string().optional(),
  vars: z.record(z.string(), z.unknown()).optional(),
  assert: z.array(assertionSchema).optional(),
  threshold: z.number().optional(),
  options: z.record(z.string(), z.unknown()).optional(),
}).passthrough()
export type PromptfooTest = z.infer<typeof testSchema>
export const promptSchema = z.object({ raw: z.string().optional(), id: z.string().optional(), label: z.string().optional() }).passthrough()

export function checkedTest(value: unknown, where: string): PromptfooTest {
  const parsed = testSchema.safeParse(value)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]!
  throw invalid(`the promptfoo config, ${where}${formatPath(issue.path as Array<string | number>).replace(/^(?=[^[])/, '.')}: ${issue.message}`)
}

export function fileOf(reference: string, where: string, readFile: ReadFile | undefined): { path: string, text: string } {
  const path = reference.replace(/^file:\/\//, '')
  if (isGlob(path)) throw invalid(`${where}: "${reference}" is a glob; name each file`)
  if (!readFile) throw invalid(`${where}: "${reference}" is a file reference, which only the command line reads (judgeflow import promptfoo); put its content in the config`)
  return { path, text: readFile(path) }
}

/**
 * A test's var as promptfoo loads it: a `file://` text as its trimmed text, YAML as its JSON; a
 * `file://` glob as the list of its files' texts (sorted by path), which runs the test once per
 * file, as promptfoo expands it. Code and media are refused; any other value is kept.
 */
export function loadVar(value: unknown, where: string, files: { readFile?: ReadFile, listFiles?: ListFiles }, maxDepth: number): unknown {
  if (typeof value !== 'string' || !value.startsWith('file://')) return value
  if (!isGlob(value)) return varFromFile(value, where, files.readFile, maxDepth)
  const pattern = value.slice('file://'.length)
  if (!files.listFiles || !files.readFile) throw invalid(`${where}: "${value}" is a file reference, which only the command line reads (judgeflow import promptfoo); put its content in the config`)
  const paths = files.listFiles(pattern)
  if (!paths.length) throw invalid(`the promptfoo config, ${where}: no file matches "${pattern}" (beside the config); promptfoo refuses it too`)
  return paths.map(path => varFromFile(`file://${path}`, where, files.readFile, maxDepth))
}

function varFromFile(reference: string, where: string, readFile: ReadFile | undefined, maxDepth: number): string {
  if (/\.(c|m)?js$|\.py$|\.pdf$|\.(png|jpe?g|gif|webp|mp3|wav|m4a|mp4)$/i.test(reference)) throw invalid(`the promptfoo config, ${where}: "${reference}" runs code or holds media, which the import does not load into a var; put the text in the var`)
  const { path, text } = fileOf(reference, where, readFile)
  return /\.ya?ml$/i.test(path) ? JSON.stringify(readStructured(text, `the file "${path}"`, maxDepth)) : text.trim()
}

/** Tests from a file (a file:// reference): CSV (vars, `__expected…`, `__description`), YAML or JSON (a list), JSONL. */
export function testsFromFile(reference: string, where: string, readFile: ReadFile | undefined, maxDepth: number): PromptfooTest[] {
  if (!reference.startsWith('file://')) throw invalid(`${where}: "${reference}" is neither a test nor a file://… reference`)
  const { path, text } = fileOf(reference, where, readFile)
  const file = `the tests file "${path}"`
  let items: unknown
  if (/\.csv$/i.test(path)) items = testsFromCsv(text, path)
  else if (/\.jsonl$/i.test(path)) items = text.split('\n').flatMap((line, i) => (line.trim() ? [parseJsonChecked(line, { maxDepth, where: `${file}, line ${i + 1}` })] : []))
  else if (/\.(ya?ml|json)$/i.test(path)) items = readStructured(text, file, maxDepth)
  else throw invalid(`${where}: "${reference}" is not a .csv, .yaml, .json or .jsonl file of tests`)
  const parsed = z.array(testSchema).safeParse(Array.isArray(items) ? items : [items])
  if (!parsed.success) throw invalid(`${where} ("${path}"), ${formatPath(parsed.error.issues[0]!.path as Array<string | number>)}: ${parsed.error.issues[0]!.message}`)
  return parsed.data
}

function testsFromCsv(text: string, path: string): PromptfooTest[] {
  const rows = parseCsvChecked<Record<string, string>>(text, { columns: header => checkedColumns(header, path), skip_empty_lines: true, bom: true }, `the tests file "${path}"`)
  return rows.map((row) => {
    const test: PromptfooTest = { vars: {}, assert: [] }
    for (const [column, cell] of Object.entries(row)) {
      if (/^__expected\d*$/.test(column)) {
        if (cell.trim()) test.assert!.push(assertionFromCell(cell))
      }
      else if (column === '__description') test.description = cell
      else if (column.startsWith('__metadata:')) {
        if (cell !== '') ((test as { metadata?: Record<string, string> }).metadata ??= {})[column.slice('__metadata:'.length)] = cell
      }
      else if (column === '__threshold') {
        if (cell.trim() === '') continue
        const threshold = Number(cell)
        if (!Number.isFinite(threshold)) throw invalid(`tests file "${path}": __threshold "${cell}" is not a number`)
        test.threshold = threshold
      }
      else if (column.startsWith('__')) throw invalid(`tests file "${path}": the column ${column} is not imported (only __expected…, __description, __metadata:… and __threshold are)`)
      else test.vars![column] = cell
    }
    return test
  })
}

/** The header row; a `__proto__` column is refused here, as the parser's assignment would drop it silently. */
function checkedColumns(header: string[], path: string): string[] {
  if (header.includes('__proto__')) throw invalid(`tests file "${path}": "__proto__" is not allowed as a column`)
  return header
}

/** A prompt, or a file of prompts separated by lines of `---`, as LLM step prompts. */
export function promptsOf(
  prompt: string | z.infer<typeof promptSchema>,
  where: string,
  readFile?: ReadFile,
  env: Record<string, string> = {},
): Array<{ label?: string, text: string, system?: string, source?: string }> {
  const template = (text: string) => promptTemplate(withEnv(text, env, where), where)
  const raw = typeof prompt === 'string' ? prompt : prompt.raw ?? prompt.id
  const label = typeof prompt === 'string' ? undefined : prompt.label
  if (!raw) throw invalid(`${where}: give the prompt's text (raw) or a file (id: file://…)`)
  if (!raw.startsWith('file://')) return [{ label, text: template(raw), source: raw }]
  const { path, text } = fileOf(raw, where, readFile)
  if (/\.(json|ya?ml)$/i.test(path)) return [{ label, ...chatPrompt(readStructured(text, `the prompt file "${path}"`, DEFAULT_MAX_JSON_DEPTH), `${where} ("${path}")`, template), source: raw }]
  if (!/\.(txt|md)$/i.test(path)) throw invalid(`${where}: "${path}" is not a .txt, .md, .json or .yaml prompt file; code prompts are not imported`)
  // As promptfoo: each prompt of a labelled file is labelled `<label>: <path>: <prompt>`, so each is its own column.
  return text.split(/^---$/m).map(part => part.trim()).filter(Boolean).map(part => ({ label: label === undefined ? undefined : `${label}: ${path}: ${part}`, text: template(part), source: raw }))
}

/**
 * A config or tests file in YAML or JSON. Text that reads as JSON is taken by JSON.parse, much
 * faster than the YAML parser; anything else, including YAML's own `{ a: 1 }`, by the YAML reader.
 */
export function readStructured(text: string, where: string, maxDepth: number): unknown {
  if (/^\s*[[{]/.test(text)) {
    const read = readJson(text, maxDepth)
    if (read.ok) return read.value
    if (read.details) throw new JudgeflowError('INVALID_INPUT', `${where} ${read.reason}.`, { details: read.details })
  }
  return parseYamlChecked(text, { maxDepth, where, format: 'YAML or JSON' })
}

/** `{{ env.NAME }}` in a prompt, replaced by the config's `env` as promptfoo renders it; a name the config does not set is refused. */
export function withEnv(text: string, env: Record<string, string>, where: string): string {
  return text.replace(/\{\{\s*env\.([A-Za-z_]\w*)\s*\}\}/g, (_whole, name: string) => {
    if (!Object.hasOwn(env, name)) throw invalid(`${where}: {{ env.${name} }} reads an environment variable the config's env does not set; judgeflow prompts do not read the environment: set it under env`)
    return env[name]!
  })
}

/**
 * A message's content as one text: a text, or a list of content parts that are all text
 * (`{ type: text, text }`), joined as the model reads them one after another; undefined for any
 * other content, such as an image part.
 */
function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content
  if (!Array.isArray(content) || !content.length) return undefined
  const texts = content.map(part => (part && typeof part === 'object' && (part as { type?: unknown }).type === 'text' && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : undefined))
  return texts.every(text => text !== undefined) ? texts.join('') : undefined
}

/**
 * A chat prompt (a list of messages): an optional system message then one user message, as the LLM
 * step's system and prompt, each content a text or text parts; a conversation, or a part other than
 * text (an image), is refused.
 */
function chatPrompt(messages: unknown, where: string, template: (text: string) => string): { text: string, system?: string } {
  const list = Array.isArray(messages) ? messages as Array<{ role?: unknown, content?: unknown }> : []
  const texts = list.map(m => (m && typeof m === 'object' && typeof m.role === 'string' ? contentText(m.content) : undefined))
  const valid = texts.every(text => text !== undefined)
  const [first, second] = list
  if (valid && list.length === 1 && first!.role === 'user') return { text: template(texts[0]!) }
  if (valid && list.length === 2 && first!.role === 'system' && second!.role === 'user') return { system: template(texts[0]!), text: template(texts[1]!) }
  const parts = list.some(m => Array.isArray(m?.content)) && !valid ? ' (a content part other than { type: text, text } — an image — is not sent by an LLM step)' : ''
  throw invalid(`${where}: a chat prompt is imported as an optional system message and one user message (each content a text, or text parts); this one has ${list.length} messages${valid ? ` (${list.map(m => m.role).join(', ')})` : ` not all of them { role, content }${parts}`}`)
}
