/**
 * The function body promptfoo (0.123.1) builds from an inline `javascript` assertion or `transform`,
 * so the same text means the same function here. No code is run by this module.
 */

/** A `const`/`let`/`var` line's last `;` outside a quoted or template string, or -1. */
function lastStatementSemicolon(code: string): number {
  let quote: '\'' | '"' | '`' | undefined
  let last = -1
  for (let i = 0; i < code.length; i++) {
    const char = code[i]!
    if (quote !== undefined) {
      if (char === '\\') i++
      else if (char === quote) quote = undefined
    }
    else if (char === '\'' || char === '"' || char === '`') quote = char
    else if (char === ';') last = i
  }
  return last
}

/**
 * A one-line assertion is an expression to return; one that starts by declaring a variable gets
 * its `return` before the part after its last statement `;` (`const s = output.length; s > 3`).
 */
function oneLineAssertionBody(line: string): string {
  const code = line.trim().replace(/;+\s*$/, '')
  if (!/^(?:const|let|var)\s/.test(code)) return `return ${code}`
  const semicolon = lastStatementSemicolon(code)
  const expression = semicolon === -1 ? '' : code.slice(semicolon + 1).trim()
  return expression ? `${code.slice(0, semicolon + 1)} return ${expression}` : code
}

/**
 * An assertion's text without its trailing white space (YAML's `|` adds a newline) is a function
 * body when it still has a line break, else a one-line expression. A transform's text is a body
 * when it has a line break at all, else `return <text>`.
 */
export function functionBody(code: string, mode: 'assertion' | 'transform'): string {
  if (mode === 'transform') return code.includes('\n') ? code : `return ${code}`
  const value = code.trimEnd()
  return value.includes('\n') ? value : oneLineAssertionBody(value)
}

/**
 * The Python module promptfoo writes for an inline `python` assertion: `main` takes the
 * parameters; a one-line value is returned, a multi-line one is `main`'s body as written,
 * every line indented like its first indented line (four spaces when none is), so it must
 * `return` its result itself (without one, main returns None).
 */
export function pythonModule(code: string, params: string[]): string {
  const multiline = code.includes('\n')
  const indent = (multiline ? /^(?!\s*$)\s+/m.exec(code)?.[0] : undefined) ?? '    '
  const body = multiline ? code.split('\n').map(line => `${indent}${line}`).join('\n') : `    return ${code}`
  return `import json\n\ndef main(${params.join(', ')}):\n${body}\n`
}
