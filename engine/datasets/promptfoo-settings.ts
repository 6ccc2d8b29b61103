import { MAX_CASE_DELAY_MS } from './schema'
import { invalid } from './promptfoo-invalid'

/**
 * The settings of a promptfoo config beside its tests' vars and assertions. Each is read, noted
 * (it changes no verdict, and the note says what to use instead), or refused (it would change what
 * is judged, so a verdict without it could differ from promptfoo's): none is dropped without a word.
 */

/** Top-level keys the import reads itself. */
const READ = new Set(['description', 'prompts', 'providers', 'defaultTest', 'tests', 'scenarios', 'evaluateOptions', 'assertionTemplates', 'env'])

/** Top-level keys that change no verdict: what each becomes in judgeflow. */
const NOTED: Record<string, string> = {
  outputPath: 'write the report with judgeflow test --report',
  sharing: 'judgeflow shares nothing',
  writeLatestResults: 'judgeflow keeps every run',
  tags: 'not imported',
  metadata: 'not imported',
  derivedMetrics: 'not imported: judgeflow\'s report gives pass rates and scores',
}

/** Test keys that change no verdict. */
const TEST_NOTED: Record<string, string> = { metadata: 'not imported' }

/** Notes what the import leaves out that changes no verdict; refuses what would change one. */
export function checkTopLevel(config: Record<string, unknown>, notes: string[]): void {
  for (const key of Object.keys(config)) {
    if (READ.has(key)) continue
    if (key in NOTED) {
      notes.push(`${key}: ${NOTED[key]}`)
      continue
    }
    throw invalid(`the promptfoo config, ${key}: it is not imported, and it may change what promptfoo runs or judges (${key === 'extensions' || key === 'nunjucksFilters' ? 'it runs code' : 'judgeflow has no equivalent'}); remove it to import the rest`)
  }
}

/**
 * A test's (or defaultTest's) keys beyond vars, assert and threshold. Its options read are the
 * grader (`provider`), the output's transform (`transform`, `postprocess`) and the factuality
 * scores; any other (a prefix to the prompt, a rubric prompt) changes what is judged, so it is refused.
 */
export function checkTestSettings(test: Record<string, unknown>, where: string, notes: string[]): void {
  for (const key of Object.keys(test)) {
    if (key === 'vars' || key === 'assert' || key === 'threshold' || key === 'description') continue
    if (key === 'options') {
      const options = (test.options ?? {}) as Record<string, unknown>
      for (const option of Object.keys(options)) {
        if (option === 'provider') continue
        if (option === 'transform' || option === 'postprocess') {
          if (typeof options[option] !== 'string' || (options[option] as string).startsWith('file://')) throw invalid(`the promptfoo config, ${where}.options.${option}: give the JavaScript inline (file:// references are not read)`)
          continue
        }
        if (option === 'factuality') {
          checkFactualityScores(options.factuality, `${where}.options.factuality`)
          continue
        }
        const why = 'judgeflow has no equivalent'
        throw invalid(`the promptfoo config, ${where}.options.${option}: not imported (${why}); remove it to import the rest`)
      }
      continue
    }
    if (key in TEST_NOTED) {
      notes.push(`${where}.${key}: ${TEST_NOTED[key]}`)
      continue
    }
    throw invalid(`the promptfoo config, ${where}.${key}: not imported (judgeflow has no equivalent); remove it to import the rest`)
  }
}

/** A prompt's or a provider's `config` beyond what the import reads: noted. */
export function checkModelConfig(config: Record<string, unknown> | undefined, where: string, read: readonly string[], notes: string[]): void {
  const rest = Object.keys(config ?? {}).filter(key => !read.includes(key))
  if (rest.length) notes.push(`${where}: config ${rest.join(', ')} not imported`)
}

/** How promptfoo's `evaluateOptions` run the suite: `repeat`, `maxConcurrency`, `delay` and `cache` are kept for judgeflow test; the rest is noted. */
export function evaluateOptionsOf(options: unknown, notes: string[]): { repeat?: number, concurrency?: number, delay_ms?: number, cache?: false } {
  if (options === undefined) return {}
  if (!options || typeof options !== 'object' || Array.isArray(options)) throw invalid('the promptfoo config, evaluateOptions: must be an object')
  const read: { repeat?: number, concurrency?: number, delay_ms?: number, cache?: false } = {}
  const ranges = { repeat: [1, 20], maxConcurrency: [1, 64], delay: [0, MAX_CASE_DELAY_MS] } as const
  for (const [key, value] of Object.entries(options)) {
    if (key === 'repeat' || key === 'maxConcurrency' || key === 'delay') {
      const [min, max] = ranges[key]
      if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw invalid(`the promptfoo config, evaluateOptions.${key}: must be a whole number from ${min} to ${max}`)
      read[key === 'repeat' ? 'repeat' : key === 'delay' ? 'delay_ms' : 'concurrency'] = value
    }
    else if (key === 'cache' && typeof value === 'boolean') {
      if (!value) read.cache = false
    }
    else notes.push(`evaluateOptions.${key}: not honoured`)
  }
  // As promptfoo: a delay between test cases runs them one at a time.
  if (read.delay_ms) read.concurrency = 1
  const flags = [read.repeat ? `--repeat ${read.repeat}` : '', read.concurrency ? `--concurrency ${read.concurrency}` : '', read.delay_ms ? `--delay ${read.delay_ms}` : '', read.cache === false ? '--no-cache' : ''].filter(Boolean)
  if (flags.length) notes.push(`evaluateOptions: judgeflow test runs the config with ${flags.join(' and ')} unless told otherwise`)
  return read
}

const FACTUALITY_KEYS = ['subset', 'superset', 'agree', 'disagree', 'differButFactual']

/** `options.factuality`: the score of each factuality category, each a number. */
function checkFactualityScores(value: unknown, where: string): void {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw invalid(`the promptfoo config, ${where}: must be an object of scores (${FACTUALITY_KEYS.join(', ')})`)
  for (const [key, score] of Object.entries(value)) {
    if (!FACTUALITY_KEYS.includes(key)) throw invalid(`the promptfoo config, ${where}.${key}: not a factuality category (${FACTUALITY_KEYS.join(', ')})`)
    if (typeof score !== 'number' || !Number.isFinite(score)) throw invalid(`the promptfoo config, ${where}.${key}: must be a number`)
  }
}

/** A `response_format` as the LLM step takes it (OpenAI's: text, json_object, json_schema); another form is refused. */
export function responseFormatOf(value: unknown, where: string): Record<string, unknown> | undefined {
  if (value === undefined) return undefined
  const format = value as { type?: unknown, json_schema?: unknown }
  const ok = value && typeof value === 'object' && !Array.isArray(value)
    && (((format.type === 'text' || format.type === 'json_object') && Object.keys(value).length === 1)
      || (format.type === 'json_schema' && Object.keys(value).length === 2 && format.json_schema && typeof format.json_schema === 'object'))
  if (!ok) throw invalid(`the promptfoo config, ${where}.config.response_format: give { type: json_object }, { type: text } or { type: json_schema, json_schema: { name, schema } } (a file:// format is not read)`)
  return value as Record<string, unknown>
}
