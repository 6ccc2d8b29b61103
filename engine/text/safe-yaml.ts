import { CORE_SCHEMA, load } from 'js-yaml'
import { Composer, CST, LineCounter, Parser, type Document } from 'yaml'
import { JudgeflowError } from '../errors'
import { assertJsonShape, jsonShapeProblem, tooDeepReason } from './safe-json'

/** What a reader of a parsed document needs to find its nodes' lines (engine/datasets/files.ts): the rest imports no YAML package. */
export { LineCounter, isMap, isSeq, type Node as YamlNode } from 'yaml'

/**
 * YAML from users (dataset files, promptfoo configs, experiments) is read here and only here. The
 * `yaml` package lexes and parses iteratively but composes and converts by recursion, so the
 * nesting is measured on the parsed tokens, with a stack of our own, before anything recurses;
 * aliases are bounded so that a few lines cannot expand into millions of values.
 */

/**
 * The deepest YAML read, whatever JUDGEFLOW_MAX_JSON_DEPTH allows JSON: the package composes about
 * 800 levels on Node's stack before it overflows, and an overflow inside it can take the process
 * down, so YAML keeps to a third of that.
 */
export const MAX_YAML_DEPTH = 256

/**
 * How far aliases (`*name`) may repeat what their anchors hold, weighed as the `yaml` package
 * weighs them (each use of an anchor, times the aliases inside it).
 */
export const MAX_YAML_ALIASES = 100

export interface YamlReadOptions {
  /** The most levels of nested objects and arrays (JUDGEFLOW_MAX_JSON_DEPTH). */
  maxDepth: number
  /** The subject of every error sentence: `the dataset file "d.yaml"`. */
  where: string
  /** How a syntax error names the format: "YAML" unless given. */
  format?: string
  /** Filled with the text's line starts, for the caller's own messages. */
  lineCounter?: LineCounter
}

/** The text's one document, its nesting checked before it is composed; a user error naming `where` and the line otherwise. */
export function parseYamlDocument(text: string, options: YamlReadOptions): Document.Parsed {
  const lines = options.lineCounter ?? new LineCounter()
  const tokens = Array.from(new Parser(lines.addNewLine).parse(text))
  const limit = Math.min(options.maxDepth, MAX_YAML_DEPTH)
  const deep = collectionBeyond(tokens, limit)
  if (deep) {
    const { line, col } = lines.linePos(deep.offset)
    const at = `line ${line}, column ${col}`
    const reason = limit === options.maxDepth
      ? tooDeepReason(limit, at)
      : `nests objects and arrays more than ${limit} levels deep (at ${at}), the most YAML may nest: flatten it, or give it as JSON`
    throw new JudgeflowError('INVALID_INPUT', `${options.where} ${reason}.`, { details: { line, limit } })
  }
  let document: Document.Parsed | undefined
  for (const composed of new Composer().compose(tokens, true, text.length)) {
    if (document) throw syntaxError(options, lines.linePos(composed.range[0]).line, 'it holds more than one document (---); give one')
    document = composed
  }
  const error = document!.errors[0]
  if (error) throw syntaxError(options, lines.linePos(error.pos[0]).line, error.message.split('\n')[0]!)
  return document!
}

/** The document as plain values: aliases within MAX_YAML_ALIASES, nesting and keys checked as JSON's. */
export function yamlValue(document: Document.Parsed, options: Pick<YamlReadOptions, 'maxDepth' | 'where' | 'format'>): unknown {
  let value: unknown
  try {
    value = document.toJS({ maxAliasCount: MAX_YAML_ALIASES })
  }
  catch (error) {
    // Whatever the conversion refuses is in the text (aliases, merge keys); the package throws plain errors for it.
    if (error instanceof JudgeflowError) throw error
    const message = (error as Error).message
    if (/^Excessive alias count/.test(message)) {
      throw new JudgeflowError('INVALID_INPUT', `${options.where} repeats values through aliases (*name) beyond the limit of ${MAX_YAML_ALIASES} alias expansions: write the values out, or use fewer aliases.`, { details: { limit: MAX_YAML_ALIASES } })
    }
    throw syntaxError(options, undefined, message.split('\n')[0]!)
  }
  assertJsonShape(value, options)
  return value
}

/**
 * YAML text as plain values, checked by parseYamlDocument and yamlValue. Plain YAML (see
 * plainYamlValue) is read by js-yaml first, promptfoo's own reader, which builds the values of a
 * 1,000-test config in a tenth of the time; whatever it cannot read as plainly takes the checked
 * path, whose answer (a value or the error naming the line) is the same either way.
 */
export function parseYamlChecked(text: string, options: YamlReadOptions): unknown {
  if (!options.lineCounter) {
    const plain = plainYamlValue(text, Math.min(options.maxDepth, MAX_YAML_DEPTH))
    if (plain) return plain.value
  }
  return yamlValue(parseYamlDocument(text, options), options)
}

/**
 * What makes YAML other than plain data, at the start of a token: an anchor (&), an alias (*), a
 * tag (!), a directive (%), a complex key (? ), a merge key (<<), or a key that is null or empty
 * (js-yaml names it "null", `yaml` ""). A quoted string holding one is taken for one too: the
 * checked path reads it, no slower than before.
 */
const NOT_PLAIN = /(?:^|[\s[{,:-])(?:[&*!%]|\?\s)|(?:^|[\s[{,])(?:<<|~|null|Null|NULL)?\s*:(?:\s|$)/m

/**
 * The value of YAML text that is plain data, as js-yaml's core schema reads it (the YAML 1.2 core
 * schema the `yaml` package reads by default: no dates, no merge keys), when it holds no more than
 * one document, no repeated key, and values within `maxDepth` levels, with no `__proto__` key or NUL
 * character; undefined otherwise, or when js-yaml refuses the text for any reason (a nesting too deep
 * for its recursion among them): the checked path then reads it and says what is wrong.
 */
export function plainYamlValue(text: string, maxDepth: number): { value: unknown } | undefined {
  if (NOT_PLAIN.test(text)) return undefined
  let value: unknown
  try {
    value = load(text, { schema: CORE_SCHEMA })
  }
  catch {
    return undefined
  }
  if (jsonShapeProblem(value, maxDepth, { noNul: true })) return undefined
  return { value }
}

function syntaxError(options: Pick<YamlReadOptions, 'where' | 'format'>, line: number | undefined, reason: string): JudgeflowError {
  return new JudgeflowError('INVALID_INPUT', `${options.where}${line ? `, line ${line}` : ''}: not valid ${options.format ?? 'YAML'}: ${reason.replace(/\.$/, '')}.`, { details: { line } })
}

/** The first collection, in the text's order, nested more than `maxDepth` levels deep (a document's value is level 1); null when none is. */
function collectionBeyond(tokens: CST.Token[], maxDepth: number): CST.Token | null {
  const stack: Array<{ token: CST.Token, depth: number }> = []
  for (const token of tokens.toReversed()) if (token.type === 'document' && token.value) stack.push({ token: token.value, depth: 1 })
  while (stack.length) {
    const { token, depth } = stack.pop()!
    if (!CST.isCollection(token)) continue
    if (depth > maxDepth) return token
    for (let i = token.items.length - 1; i >= 0; i--) {
      const item = token.items[i]!
      if (item.value) stack.push({ token: item.value, depth: depth + 1 })
      if (item.key) stack.push({ token: item.key, depth: depth + 1 })
    }
  }
  return null
}
