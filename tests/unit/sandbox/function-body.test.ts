import { describe, expect, it } from 'vitest'
import { functionBody, pythonModule } from '../../../engine/sandbox'

describe('the function promptfoo makes of an inline javascript assertion', () => {
  it('returns a one-line value as an expression', () => {
    expect(functionBody('output.includes("yes")', 'assertion')).toBe('return output.includes("yes")')
    expect(functionBody('  output === "a";;  ', 'assertion')).toBe('return output === "a"')
  })

  it('puts the return of a one-line value that declares variables before the part after its last statement semicolon', () => {
    expect(functionBody('const s = JSON.parse(output).score; s > 0.5', 'assertion')).toBe('const s = JSON.parse(output).score; return s > 0.5')
    expect(functionBody('let a = 1; let b = "x;y"; a + b.length;', 'assertion')).toBe('let a = 1; let b = "x;y"; return a + b.length')
    expect(functionBody('const s = \'it\\\'s;\'; s', 'assertion')).toBe('const s = \'it\\\'s;\'; return s')
    // Nothing after the last semicolon: the text as it is (it returns undefined).
    expect(functionBody('const s = 1;', 'assertion')).toBe('const s = 1')
  })

  it('takes a value that has a line break once trailing white space is gone as the body, as written', () => {
    expect(functionBody('const n = output.length\nreturn n > 2\n', 'assertion')).toBe('const n = output.length\nreturn n > 2')
    // YAML's `|` leaves a newline after a one-line value: still an expression.
    expect(functionBody('output === "yes"\n', 'assertion')).toBe('return output === "yes"')
  })

  it('returns a one-line transform as it is and takes any text with a line break as a body', () => {
    expect(functionBody('output.toUpperCase()', 'transform')).toBe('return output.toUpperCase()')
    expect(functionBody('const x = 1; x', 'transform')).toBe('return const x = 1; x')
    expect(functionBody('output.trim()\n', 'transform')).toBe('output.trim()\n')
  })
})

describe('the module promptfoo makes of an inline python assertion', () => {
  it('returns a one-line value from main(output, context)', () => {
    expect(pythonModule('output == "yes"', ['output', 'context'])).toBe('import json\n\ndef main(output, context):\n    return output == "yes"\n')
  })

  it('indents every line of a multi-line value like its first indented line, so the value must return itself', () => {
    expect(pythonModule('n = len(output)\nreturn n > 2', ['output', 'context']))
      .toBe('import json\n\ndef main(output, context):\n    n = len(output)\n    return n > 2\n')
    expect(pythonModule('if output:\n  return 1\nreturn 0', ['output', 'context']))
      .toBe('import json\n\ndef main(output, context):\n  if output:\n    return 1\n  return 0\n')
    // A trailing newline makes a one-line value multi-line: it is a statement, not returned.
    expect(pythonModule('output == "yes"\n', ['output', 'context'])).toBe('import json\n\ndef main(output, context):\n    output == "yes"\n    \n')
  })
})
