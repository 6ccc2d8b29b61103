import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { JudgeflowError } from '../../../engine/errors'
import { MAX_JSON_DEPTH_CEILING } from '../../../engine/text/safe-json'
import { MAX_YAML_ALIASES, MAX_YAML_DEPTH, parseYamlChecked, parseYamlDocument, plainYamlValue, yamlValue } from '../../../engine/text/safe-yaml'

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

describe('plain YAML read by js-yaml', () => {
  const checked = (text: string) => yamlValue(parseYamlDocument(text, options), options)
  const files = ['tests', 'examples'].flatMap(root => readdirSync(root, { recursive: true, encoding: 'utf8' }).filter(f => /\.ya?ml$/.test(f)).map(f => join(root, f)))
  const samples = [
    'a: |\n  line one\n  line two\n\nb: >-\n  folded\n  text\n',
    'n: [0x1F, 0o17, 1e3, .inf, -.INF, +12, 1.50, 007]\nb: [true, True, FALSE, yes, no, on]\nz: [~, null, Null, ]\n',
    's: "tab\\there \\u00e9 \\x41"\nq: \'it\'\'s\'\nplain: a b  c\nurl: http://x.test/a#b\n',
    'nested:\n  - - 1\n    - 2\n  - {x: [1, {y: 2}]}\nempty: {}\nlist: []\n',
    'emoji: "✓ 日本語"\nmulti: first\n  second\n  third\n# a comment\nlast: 1 # trailing\n',
    '---\nkey: value\n',
  ]

  it('gives the checked path\'s value for every YAML file of the project and the edge cases, or leaves the text to it', () => {
    expect(files.length).toBeGreaterThan(10)
    let taken = 0
    for (const text of [...files.map(f => readFileSync(f, 'utf8')), ...samples]) {
      let expected: unknown
      try {
        expected = checked(text)
      }
      catch {
        expect(plainYamlValue(text, 64)).toBeUndefined()
        continue
      }
      const plain = plainYamlValue(text, 64)
      if (plain) {
        taken++
        expect(plain.value).toEqual(expected)
      }
    }
    expect(taken).toBeGreaterThan(files.length / 2)
    // The edge cases are read by js-yaml, as its answers are compared above.
    for (const text of samples) expect(plainYamlValue(text, 64), text).toBeDefined()
  })

  it('takes a promptfoo config of 1,000 tests, and leaves anchors, aliases, tags, merge keys, null keys, repeated keys, two documents and deep nesting to the checked path', () => {
    const tests = Array.from({ length: 1000 }, (_, i) => `  - description: case ${i}\n    vars: { question: 'question ${i}' }\n    assert: [{ type: contains, value: 'question ${i}' }]`)
    const config = `prompts: ['Answer: {{question}}']\nproviders:\n  - id: http://127.0.0.1:1/chat\n    config: { method: POST, body: { message: '{{prompt}}' } }\ntests:\n${tests.join('\n')}\n`
    expect(plainYamlValue(config, 64)?.value).toEqual(checked(config))
    for (const text of ['a: &x 1\nb: *x\n', 'a: !!str 1\n', 'base: {a: 1}\nc:\n  <<: {b: 2}\n', '~: 1\n', 'null: 1\n', '? [a, b]\n: 1\n', 'a: 1\na: 2\n', 'a: 1\n---\nb: 2\n', `${'['.repeat(100)}${']'.repeat(100)}`]) {
      expect(plainYamlValue(text, 64), text).toBeUndefined()
    }
    expect(() => parseYamlChecked('a: 1\na: 2\n', options)).toThrow(/line 2/)
  })
})
