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

export default { rules: { 'function-length': functionLength } }
