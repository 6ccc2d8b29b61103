import { describe, expect, it } from 'vitest'
import { JudgeflowError } from '../../../engine/errors'
import { MAX_JSON_DEPTH_CEILING } from '../../../engine/text/safe-json'
import { MAX_YAML_ALIASES, MAX_YAML_DEPTH, parseYamlChecked, parseYamlDocument } from '../../../engine/text/safe-yaml'

const options = { maxDepth: 64, where: 'the dataset' }

function refusal(text: string, maxDepth = 64): JudgeflowError {
  try {
    parseYamlChecked(text, { ...options, maxDepth })
  }
  catch (error) {
    expect(error).toBeInstanceOf(JudgeflowError)
    expect((error as JudgeflowError).code).toBe('INVALID_INPUT')
    return error as JudgeflowError
  }
  throw new Error('expected the text to be refused')
}

describe('YAML from users', () => {
  it('refuses flow collections nested past the limit before composing them, naming the limit, the line and the column, every time', () => {
    const text = `${'['.repeat(3000)}${']'.repeat(3000)}`
    for (let attempt = 0; attempt < 3; attempt++) {
      const error = refusal(text)
      expect(error.message).toBe(`the dataset nests objects and arrays more than 64 levels deep (at line 1, column 65): flatten it, or raise JUDGEFLOW_MAX_JSON_DEPTH (at most ${MAX_JSON_DEPTH_CEILING}).`)
      expect(error.details).toEqual({ line: 1, limit: 64 })
    }
    expect(parseYamlChecked('- a: 1\n', options)).toEqual([{ a: 1 }])
  })

  it('measures block collections, maps in flow and keys alike', () => {
    expect(refusal(`cases:\n  - ${'- '.repeat(5000)}x\n`).message).toContain('(at line 2, column 129)')
    expect(refusal(`${'{a: '.repeat(3000)}1${'}'.repeat(3000)}`).message).toContain('more than 64 levels deep (at line 1, column 257)')
    const blocks = Array.from({ length: 10 }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n')
    expect(refusal(`${blocks} x`, 8).message).toContain('(at line 9, column 17)')
    expect(refusal(`? ${'['.repeat(100)}${']'.repeat(100)}\n: v`).message).toContain('more than 64 levels deep')
  })

  it('accepts nesting up to the limit; YAML nests at most MAX_YAML_DEPTH levels whatever the limit', () => {
    expect(parseYamlChecked(`${'['.repeat(64)}${']'.repeat(64)}`, options)).toBeInstanceOf(Array)
    expect(refusal(`${'['.repeat(65)}${']'.repeat(65)}`).message).toContain('(at line 1, column 65)')
    const ceiling = { ...options, maxDepth: MAX_JSON_DEPTH_CEILING }
    expect(parseYamlChecked(`${'- '.repeat(MAX_YAML_DEPTH)}x`, ceiling)).toBeInstanceOf(Array)
    expect(parseYamlChecked(`${'{a: '.repeat(MAX_YAML_DEPTH)}1${'}'.repeat(MAX_YAML_DEPTH)}`, ceiling)).toHaveProperty('a')
    const error = refusal(`${'['.repeat(MAX_JSON_DEPTH_CEILING)}${']'.repeat(MAX_JSON_DEPTH_CEILING)}`, MAX_JSON_DEPTH_CEILING)
    expect(error.message).toBe(`the dataset nests objects and arrays more than ${MAX_YAML_DEPTH} levels deep (at line 1, column ${MAX_YAML_DEPTH + 1}), the most YAML may nest: flatten it, or give it as JSON.`)
  })

  it('refuses any depth without running out of stack', () => {
    const error = refusal(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)
    expect(error.message).toContain('more than 64 levels deep')
  })

  it('checks what aliases and flow pairs build as JSON is checked, by path', () => {
    // Each line is within the limit; the values the aliases repeat nest them deeper.
    const chained = 'a: &a [[[[x]]]]\nb: &b [[[[*a]]]]\nc: [[[[*b]]]]\n'
    expect(refusal(chained, 10).message).toMatch(/^the dataset nests objects and arrays more than 10 levels deep \(at c\[0\]\[0\]/)
    expect(refusal('[a: [b: [c: [d: 1]]]]', 6).message).toMatch(/more than 6 levels deep \(at \[0\]\.a/)
  })

  it('refuses an alias bomb naming the alias limit; a few aliases are read', () => {
    const levels = 'abcdefghi'.split('')
    const bomb = levels.map((name, i) => `${name}: &${name} [${Array(9).fill(i ? `*${levels[i - 1]}` : '"lol"').join(', ')}]`).join('\n')
    const error = refusal(bomb)
    expect(error.message).toBe(`the dataset repeats values through aliases (*name) beyond the limit of ${MAX_YAML_ALIASES} alias expansions: write the values out, or use fewer aliases.`)
    expect(error.details).toEqual({ limit: MAX_YAML_ALIASES })
    expect(parseYamlChecked('base: &b { model: m }\none: *b\ntwo: *b\n', options)).toEqual({ base: { model: 'm' }, one: { model: 'm' }, two: { model: 'm' } })
    expect(refusal('a: *missing\n').message).toBe('the dataset: not valid YAML: Unresolved alias (the anchor must be set before the alias): missing.')
  })

  it('refuses __proto__ keys, more than one document and bad syntax, naming the line', () => {
    expect(refusal('cases:\n  - __proto__: { polluted: true }\n').message).toBe('the dataset is refused: "__proto__" is not allowed as a key (at cases[0]).')
    expect(refusal('a: 1\n---\nb: 2\n').message).toBe('the dataset, line 2: not valid YAML: it holds more than one document (---); give one.')
    expect(refusal('a: [1\nb: 2\n').message).toMatch(/^the dataset, line \d: not valid YAML: /)
    expect(() => parseYamlChecked('a: [\n', { ...options, format: 'YAML or JSON' })).toThrow(/^the dataset, line \d: not valid YAML or JSON: /)
  })

  it('gives the document, for callers that edit it or need its positions', () => {
    const document = parseYamlDocument('# note\ntarget: { node: a }\n', options)
    document.setIn(['target', 'node'], 'b')
    expect(document.toString()).toBe('# note\ntarget: { node: b }\n')
    expect(() => parseYamlDocument(`${'['.repeat(100)}${']'.repeat(100)}`, options)).toThrow('more than 64 levels deep')
  })
})
