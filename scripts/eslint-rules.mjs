// The house rules that no rule of ESLint's own states: eslint.config.mjs loads them as the `judgeflow` plugin.
import { relative } from 'node:path'

/** A function's name for its exception key and its message: `f`, `Class.method` is named `method`, an arrow by its variable. */
function functionName(node) {
  if (node.id?.name) return node.id.name
  const parent = node.parent
  if ((parent?.type === 'MethodDefinition' || parent?.type === 'Property' || parent?.type === 'PropertyDefinition') && parent.key?.type === 'Identifier') return parent.key.name
  if (parent?.type === 'VariableDeclarator' && parent.id?.type === 'Identifier') return parent.id.name
  return '(anonymous)'
}

/** The lines from `first` to `last` that hold code: blank lines and lines with only comments on them are not counted. */
function codeLines(sourceCode, first, last) {
  const commentOnly = new Set()
  for (const comment of sourceCode.getAllComments()) {
    for (let line = Math.max(comment.loc.start.line, first); line <= Math.min(comment.loc.end.line, last); line++) {
      const text = sourceCode.lines[line - 1]
      const start = line === comment.loc.start.line ? comment.loc.start.column : 0
      const end = line === comment.loc.end.line ? comment.loc.end.column : text.length
      if (`${text.slice(0, start)}${text.slice(end)}`.trim() === '') commentOnly.add(line)
    }
  }
  let count = 0
  for (let line = first; line <= last; line++) {
    if (sourceCode.lines[line - 1].trim() !== '' && !commentOnly.has(line)) count++
  }
  return count
}

const functionLength = {
  meta: {
    type: 'suggestion',
    docs: { description: 'A function holds at most `max` lines of code; a longer one is a named exception, with its reason and the length it may not pass.' },
    schema: [{
      type: 'object',
      properties: {
        max: { type: 'integer' },
        exceptions: { type: 'object', additionalProperties: { type: 'object', properties: { lines: { type: 'integer' }, why: { type: 'string' } }, required: ['lines', 'why'] } },
      },
      additionalProperties: false,
    }],
    messages: {
      long: '{{name}} has {{count}} lines of code, over the budget of {{max}}: split it into functions that each do one job (or name it in eslint.config.mjs\'s FUNCTION_LENGTH_EXCEPTIONS, with its reason).',
      grown: '{{name}} has grown to {{count}} lines of code, past the {{lines}} its exception allows ({{why}}): split it rather than raise the exception.',
    },
  },
  create(context) {
    const { max = 80, exceptions = {} } = context.options[0] ?? {}
    const file = relative(context.cwd, context.filename).split('\\').join('/')
    const check = (node) => {
      const count = codeLines(context.sourceCode, node.loc.start.line, node.loc.end.line)
      if (count <= max) return
      const name = functionName(node)
      const exception = exceptions[`${file}#${name}`]
      if (!exception) return context.report({ node, messageId: 'long', data: { name, count, max } })
      if (count > exception.lines) context.report({ node, messageId: 'grown', data: { name, count, lines: exception.lines, why: exception.why } })
    }
    return { FunctionDeclaration: check, FunctionExpression: check, ArrowFunctionExpression: check }
  },
}

/** The parsers of the formats engine/text reads (YAML, TOML, CSV): only a writer (`stringify`) may be imported from them elsewhere. */
const PARSER_PACKAGES = /^(yaml|js-yaml|smol-toml|csv-parse)(\/.*)?$/

/** Whether an import takes nothing but `stringify` (a writer); a dynamic import, a namespace or a default takes the parser too. */
const writesOnly = node => node.type === 'ImportDeclaration' && node.specifiers.length > 0
  && node.specifiers.every(s => s.type === 'ImportSpecifier' && (s.imported.name ?? s.imported.value) === 'stringify')

const parseThroughText = {
  meta: {
    type: 'problem',
    docs: { description: 'User text is parsed through engine/text, which bounds its depth and size: no JSON.parse and no YAML, TOML or CSV parser elsewhere.' },
    schema: [],
    messages: {
      json: 'Read JSON through engine/text/safe-json.ts, which bounds its depth: text from a user, a file or a model with readJson or parseJsonChecked, parseJsonWithin (JSON.parse\'s errors kept) or, in the web app, parseTypedJson; JSON the product wrote itself (stored rows, its own messages) with parseOwnJson (engine/text/own-json.ts).',
      parser: 'Read YAML, TOML and CSV through engine/text (safe-yaml.ts, safe-toml.ts, safe-csv.ts), which bound their depth, aliases and size: no module elsewhere imports {{name}}\'s parser (its `stringify` alone, a writer, is allowed).',
    },
  },
  create(context) {
    const parserImport = (node) => {
      if (typeof node.source?.value === 'string' && PARSER_PACKAGES.test(node.source.value) && !writesOnly(node)) {
        context.report({ node, messageId: 'parser', data: { name: node.source.value } })
      }
    }
    return {
      CallExpression(node) {
        const callee = node.callee.type === 'ChainExpression' ? node.callee.expression : node.callee
        if (callee.type !== 'MemberExpression' || callee.object.type !== 'Identifier' || callee.object.name !== 'JSON') return
        const property = callee.computed ? callee.property.value : callee.property.name
        if (property === 'parse') context.report({ node, messageId: 'json' })
      },
      ImportDeclaration: parserImport,
      ImportExpression: parserImport,
      ExportNamedDeclaration: parserImport,
      ExportAllDeclaration: parserImport,
    }
  },
}

export default { rules: { 'function-length': functionLength, 'parse-through-text': parseThroughText } }
