/**
 * How the step forms name their fields for people, and how the schemas' problems read as sentences
 * beside those fields. Pure (no Vue), tested on its own.
 */
import { EVALUATION_INPUTS } from '../../engine/evaluation-types/fields'
import { ownConfigFields } from '../../engine/evaluation-types/specs'
import { DEFAULT_CODE_TIMEOUT_MS } from '../../engine/sandbox/limits'

export interface FieldText {
  label: string
  help?: string
}

/** The help of a condition's value, naming the evaluator before it (`judge` when there is none yet). */
export function conditionValueHelp(judge = 'judge'): string {
  return `What is checked, usually an earlier step's output such as {{steps.${judge}.passed}}.`
}

/** Field labels and help text; a field of one step type only is keyed `<type>.<field>`. */
const FIELDS: Record<string, FieldText> = {
  'model': { label: 'Model', help: 'Which model answers: one this server has a key for, or any model of an OpenAI-compatible server.' },
  'prompt': { label: 'Prompt', help: 'What is sent to the model. Insert the run input or earlier steps\' outputs with the variable button or by typing {{.' },
  'system': { label: 'System prompt', help: 'Instructions the model follows for the whole conversation (optional).' },
  'temperature': { label: 'Temperature', help: 'From 0 (the same answer every time) to 2 (varied answers).' },
  'max_tokens': { label: 'Max tokens', help: 'The longest answer the model may give, in tokens.' },
  'response_format': { label: 'Response format', help: 'Optional, for OpenAI models: {"type": "json_object"} asks for JSON (or a json_schema); the answer stays text.' },
  'cache': { label: 'Cache responses', help: 'Reuse the answer to the same request instead of asking the model again.' },
  'condition.left': { label: 'Value', help: conditionValueHelp() },
  'op': { label: 'Operator', help: 'How the value is compared.' },
  'condition.right': { label: 'Compare with', help: 'What the value is compared with (not used by "is truthy").' },
  'ignore_case': { label: 'Ignore case', help: 'For "contains" and "matches".' },
  'target': { label: 'Step to re-run', help: 'This step and everything after it run again; only steps before the retry can be chosen.' },
  'max_attempts': { label: 'Max attempts', help: 'How many times the step runs in all, the first time included.' },
  'reason': { label: 'Reason', help: 'Why the flow retries, shown in the run\'s events.' },
  'verdict': { label: 'Verdict', help: 'Whether reaching this output means the run passed or failed.' },
  'output.value': { label: 'Value', help: 'What the run returns when it ends here.' },
  'http.url': { label: 'URL', help: 'Your endpoint, absolute (https://…). References allowed: {{input.base}}/chat.' },
  'http.method': { label: 'Method' },
  'http.headers': { label: 'Headers' },
  'http.body': { label: 'Body', help: 'JSON sent as the request body; references go inside its strings.' },
  'http.answer': { label: 'Answer path', help: 'Where the answer is in the response\'s JSON, e.g. choices[0].message.content; empty: the whole body.' },
  'http.timeout_ms': { label: 'Timeout (ms)', help: 'For the whole call, retries and redirects included; 30000 unless set.' },
  'http.retries': { label: 'Retries', help: 'Calls made again after a 429 or 5xx, waiting as Retry-After asks; 2 unless set.' },
  'http.expect_status': { label: 'Expected status', help: 'The statuses that succeed, e.g. 200 or 200, 201; empty: any 2xx.' },
  'code.module': { label: 'Module file', help: 'A .js, .mjs, .cjs, .ts, .mts, .cts, .jsx or .tsx file, relative to the config folder: JUDGEFLOW_CONFIG_DIR, ./configs by default.' },
  'code.python': { label: 'Python file', help: 'A .py file, relative to the config folder: JUDGEFLOW_CONFIG_DIR, ./configs by default.' },
  'code.input': { label: 'Function input', help: 'JSON the function gets as input; references go inside its strings. Empty: the run input.' },
  'code.timeout_ms': { label: 'Timeout (ms)', help: `How long the call may take; empty: the server's JUDGEFLOW_CODE_TIMEOUT_MS (${DEFAULT_CODE_TIMEOUT_MS} unless set).` },
  'code.network': { label: 'Allow network access', help: 'Unticked, the code has no network: the sandbox refuses every connection it makes.' },
  'code.env': { label: 'Environment variables', help: 'Names separated by commas: the code sees these variables and no others. Only names JUDGEFLOW_HTTP_ENV or the workflow\'s settings.env lists are readable.' },
  'code.promptfoo': { label: 'promptfoo call' },
  'fields': { label: 'Run input fields' },
  'pinned': { label: 'Pinned outputs' },
  'pass_threshold': { label: 'Pass threshold' },
  'criteria': { label: 'Criteria' },
  'metrics': { label: 'Metrics' },
  'scorers': { label: 'Scorers' },
  'rubric': { label: 'Rubric grades' },
  'rubric.grades': { label: 'Rubric grades' },
  'compare_inputs': { label: 'Candidates' },
  'evaluation_type': { label: 'Evaluation type' },
  'evaluator.model': { label: 'Judge model' },
  'judges': { label: 'Judges', help: 'A panel: each model is asked the same question at once.' },
  'panel': { label: 'Panel verdict', help: 'How the judges\' verdicts combine: their majority (a tie fails) or their mean score.' },
  'llm_default': { label: 'Default metric model' },
  'preset': { label: 'Scorer preset' },
  'trace_options': { label: 'Trace scoring' },
  'assert': { label: 'Assertions' },
}

/** The condition operators in words. */
export const OPERATOR_LABELS: Record<string, string> = {
  eq: 'equals', neq: 'does not equal', gt: 'is greater than', gte: 'is at least', lt: 'is less than', lte: 'is at most',
  contains: 'contains', matches: 'matches the pattern', truthy: 'is truthy',
}

const humanize = (key: string) => {
  const words = key.replace(/[_-]+/g, ' ').trim()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/**
 * A field's label and help: its own words (an evaluator's inputs and its types' own settings say
 * theirs in engine/evaluation-types), else the schema's description, else its key in words.
 */
export function fieldText(stepType: string, key: string, description?: string): FieldText {
  const evaluator = stepType === 'evaluator' ? ownConfigFields.get(key) : undefined
  const known: FieldText | undefined = FIELDS[`${stepType}.${key}`] ?? evaluator ?? FIELDS[key] ?? (EVALUATION_INPUTS as Record<string, FieldText>)[key]
  return { label: known?.label ?? humanize(key), help: known?.help ?? description }
}

/** The zod wording of a problem, said of the field ("is required"); other wording stays as it is. */
export function predicate(message: string): string {
  const wording: Array<[RegExp, (m: RegExpExecArray) => string]> = [
    [/^Invalid input: expected \w+, received undefined$/, () => 'is required'],
    [/^Invalid input: expected nonoptional, received undefined$/, () => 'is required'],
    [/^Invalid option: expected one of (.+)$/, m => `must be one of ${m[1]!.replace(/"/g, '').split('|').join(', ')}`],
    [/^Invalid input: expected (number|int), received (\w+)$/, () => 'must be a number'],
    [/^Invalid input: expected (\w+), received (\w+)$/, m => `must be ${/^[aeiou]/.test(m[1]!) ? 'an' : 'a'} ${m[1]}, not ${/^[aeiou]/.test(m[2]!) ? 'an' : 'a'} ${m[2]}`],
    [/^Too small: expected string to have >=1 characters?$/, () => 'is required'],
    [/^Too small: expected (?:number|int) to be >=(.+)$/, m => `must be at least ${m[1]}`],
    [/^Too small: expected (?:number|int) to be >(.+)$/, m => `must be more than ${m[1]}`],
    [/^Too big: expected (?:number|int) to be <=(.+)$/, m => `must be at most ${m[1]}`],
    [/^Too big: expected (?:number|int) to be <(.+)$/, m => `must be less than ${m[1]}`],
    [/^Too small: expected array to have >=?(\d+) items?$/, m => `needs at least ${m[1]}`],
    [/^Too big: expected array to have <=(\d+) items?$/, m => `can have at most ${m[1]}`],
    [/^Too small: expected string to have >=(\d+) characters?$/, m => `needs at least ${m[1]} characters`],
    [/^Too big: expected string to have <=(\d+) characters?$/, m => `can be at most ${m[1]} characters`],
    [/^Invalid input: expected int, received number$/, () => 'must be a whole number'],
  ]
  for (const [pattern, say] of wording) {
    const match = pattern.exec(message)
    if (match) return say(match)
  }
  return message
}

/**
 * The rows of a list field, by the list's path: what one row is called and its fields in words, so
 * that `rubric.grades[5].grade` reads "Grade 6: the name".
 */
const ROWS: Record<string, { noun: string, fields: Record<string, string> }> = {
  'criteria': { noun: 'Criterion', fields: { name: 'name', description: 'description', weight: 'weight' } },
  'rubric.grades': { noun: 'Grade', fields: { grade: 'name', min_score: 'min score', description: 'description' } },
  'metrics': { noun: 'Metric', fields: { name: 'name', weight: 'weight', model: 'model' } },
  'scorers': { noun: 'Scorer', fields: { type: 'type', weight: 'weight', options: 'options' } },
  'judges': { noun: 'Judge', fields: {} },
  'env': { noun: 'Variable', fields: {} },
}

/** Where in a field a problem is: `criteria[0].name` → "Criterion 1: the name", `fields.question.type` → "Run input fields question type". */
function placeOf(stepType: string, path: string): string {
  const row = /^([\w.]+)\[(\d+)\](?:\.(\w+))?$/.exec(path)
  const rows = row ? ROWS[row[1]!] : undefined
  if (row && rows) {
    const name = `${rows.noun} ${Number(row[2]) + 1}`
    return row[3] ? `${name}: the ${rows.fields[row[3]] ?? row[3].replace(/_/g, ' ')}` : name
  }
  if (FIELDS[path]) return FIELDS[path].label
  const [top = '', ...rest] = path.split('.')
  const index = /^([\w-]+)\[(\d+)\]$/.exec(top)
  const label = fieldText(stepType, index ? index[1]! : top).label
  const inside = rest.map(key => key.replace(/\[(\d+)\]/g, (_, n: string) => ` ${Number(n) + 1}`).replace(/_/g, ' '))
  return [index ? `${label} ${Number(index[2]) + 1}` : label, ...inside].join(' ')
}

/**
 * A problem of a step's field as a sentence beginning with where it is:
 * `config.max_tokens` + "Too small: expected number to be >0" → "Max tokens must be more than 0."
 */
export function problemSentence(stepType: string, path: string, message: string): string {
  const place = placeOf(stepType, path.replace(/^config\./, ''))
  const said = predicate(message)
  const sentence = /^(is|are|must|needs|has|cannot|can|should|does)\b/.test(said) ? `${place} ${said}` : `${place}: ${said}`
  return /[.!?)]$/.test(sentence) ? sentence : `${sentence}.`
}
