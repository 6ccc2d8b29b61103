/**
 * Writes the README's tables of what each step type and evaluation type outputs, from their
 * declarations (`outputs` in engine/steps/<type>/spec.ts and engine/evaluation-types/<type>/spec.ts):
 * `npm run generate:output-fields`. The tables sit between two markers in README.md;
 * tests/unit/scripts/output-fields.test.ts fails while they are stale.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { builtinStepSpecs } from '../engine/steps/specs'
import { evaluationTypeSpecs } from '../engine/evaluation-types/specs'
import { commonEvaluatorFields } from '../engine/steps/evaluator/outputs'
import { typesOf, type OutputFields } from '../engine/steps/outputs'

export const readmePath = fileURLToPath(new URL('../README.md', import.meta.url))
export const START = '<!-- output-fields:start (npm run generate:output-fields writes this part) -->'
export const END = '<!-- output-fields:end -->'

/** What a step's output holds when its config decides (the input step's fields), in words. */
const FROM_CONFIG: Record<string, string> = {
  input: 'The run input, its defaults filled in: the fields its `fields` declare (of their `type`). Without declared fields, any key of the run input.',
}

const UNKNOWN_NAMES = { criteria: '{{names}}', scorers: '{{names}}', enabled_metrics: '{{names}}' }

const cell = (text: string) => text.replaceAll('|', '\\|')

function rows(fields: OutputFields, prefix = ''): string[] {
  const out: string[] = []
  for (const [name, field] of Object.entries(fields)) {
    const path = `${prefix}${name}`
    const when = field.optional ? ` (${field.optional})` : ''
    out.push(`| \`${path}\` | ${cell(typesOf(field).join(' | '))} | ${cell(field.description)}${cell(when)} |`)
    if (field.fields && !field.open) out.push(...rows(field.fields, `${path}.`))
    if (field.items?.fields) out.push(...rows(field.items.fields, `${path}[].`))
  }
  return out
}

const table = (fields: OutputFields) => ['| field | type | what it holds |', '| --- | --- | --- |', ...rows(fields)].join('\n')

/** The generated part of the README. */
export function renderOutputFields(): string {
  const parts: string[] = []
  for (const spec of builtinStepSpecs) {
    parts.push(`#### ${spec.label} (\`${spec.type}\`)`)
    if (FROM_CONFIG[spec.type]) parts.push(FROM_CONFIG[spec.type]!)
    else if (spec.type === 'evaluator') {
      parts.push('Every evaluation type reports these; `criteria_scores` and `criteria_reasons` are keyed as its table says.', table(commonEvaluatorFields(['<key>'])))
    }
    else parts.push(table(spec.outputs!({}).fields ?? {}))
  }
  for (const spec of evaluationTypeSpecs) {
    // Names from the config (criteria, scorers, metrics) as if only the run knew them: the tables show no example's keys.
    const own = spec.outputs({ evaluation_type: spec.type, ...UNKNOWN_NAMES })
    parts.push(`#### Evaluator, \`evaluation_type: "${spec.type}"\``, `\`criteria_scores\` keys: ${own.scoreKeysAre}.`)
    parts.push(own.fields && Object.keys(own.fields).length ? `Beyond the fields above:\n\n${table(own.fields)}` : 'No fields beyond those above.')
  }
  return [START, '', ...parts.flatMap(p => [p, '']), END].join('\n')
}

/** README.md with its generated part replaced. */
export function withOutputFields(readme: string): string {
  const start = readme.indexOf(START)
  const end = readme.indexOf(END)
  if (start < 0 || end < start) throw new Error(`README.md has no "${START}" … "${END}" region to write the output fields into.`)
  return readme.slice(0, start) + renderOutputFields() + readme.slice(end + END.length)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(readmePath, withOutputFields(readFileSync(readmePath, 'utf8')))
}
