import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { builtinScorers, createProviders, defaultScorerRegistry, evaluate, levenshteinDistance, loadScorersFolder, ScorerRegistry } from '../../../engine'

const reg = defaultScorerRegistry
const run = (type: string, actual: unknown, expected: unknown, original: unknown = {}, options: Record<string, unknown> = {}) => {
  const scorer = reg.get(type)!
  return scorer.measure(actual, expected, { original, options })
}
const providers = createProviders({ env: {} })

describe('operation-accuracy', () => {
  it('matches type, target and insert position; says why each miss missed', () => {
    // Each row: an expected operation, and the one given in its place.
    const rows = [
      [{ type: 'update', targetBlockId: 'b1' }, { type: 'update', targetBlockId: 'b1' }],
      [{ type: 'insert', targetBlockId: 'b2', position: 'after' }, { type: 'insert', targetBlockId: 'b2', position: 'after' }],
      [{ type: 'delete', targetBlockId: 'b3' }, { type: 'update', targetBlockId: 'b3' }],
      [{ type: 'insert', targetBlockId: 'b4', position: 'before' }, { type: 'insert', targetBlockId: 'b4', position: 'after' }],
      [{ type: 'replace', targetBlockId: 'b5' }, { type: 'replace', targetBlockId: 'b9' }],
    ]
    const expected = { operations: rows.map(([want]) => want) }
    const actual = { operations: rows.map(([, given]) => given) }
    const { score, details } = run('operation-accuracy', actual, expected)
    expect(score).toBe(0.4)
    expect(details).toMatchObject({ matchedOperations: 2, totalExpectedOperations: 5 })
    expect((details.unmatchedOperations as Array<{ reason: string }>).map(u => u.reason)).toEqual(['type mismatch', 'position mismatch', 'target mismatch'])
  })

  it('matches by index when there are no ids, and names the bad field', () => {
    expect(run('operation-accuracy', { operations: [{ type: 'update', targetIndex: 2 }] }, { operations: [{ type: 'update', targetIndex: 2 }] }).score).toBe(1)
    expect(() => run('operation-accuracy', { operations: [{ type: 'rename', targetBlockId: 'x' }] }, { operations: [] }))
      .toThrow(/Scorer "operation-accuracy": actual\.operations\[0\]\.type: /)
  })
})

describe('target-block-precision', () => {
  it('counts an expected target found when some operation aims at its block id or index, and lists expected vs actual', () => {
    const expected = { operations: [{ type: 'update', targetBlockId: 'a' }, { type: 'update', targetIndex: 3 }, { type: 'update', targetBlockId: 'c' }, { type: 'delete', targetBlockId: 'd' }] }
    const actual = { operations: [{ type: 'insert', targetBlockId: 'a' }, { type: 'update', targetBlockId: 'x', targetIndex: 3 }, { type: 'update', targetBlockId: 'z' }] }
    const { score, details } = run('target-block-precision', actual, expected)
    expect(score).toBe(0.5)
    expect(details).toMatchObject({ correctTargets: 2, totalTargets: 4 })
    expect(details.incorrectTargets).toEqual([
      { expected: { targetBlockId: 'c', targetIndex: null }, actual: { targetBlockId: 'z', targetIndex: null } },
      { expected: { targetBlockId: 'd', targetIndex: null }, actual: null },
    ])
  })

  it('finds targets wherever they are in the list, whatever the operation type, each operation used once', () => {
    const expected = { operations: [{ type: 'update', targetBlockId: 'a' }, { type: 'delete', targetBlockId: 'b' }, { type: 'update', targetBlockId: 'a' }] }
    const actual = { operations: [{ type: 'replace', targetBlockId: 'b' }, { type: 'insert', targetBlockId: 'a', position: 'before' }, { type: 'update', targetBlockId: 'x' }] }
    const { score, details } = run('target-block-precision', actual, expected)
    // a and b are found out of order and by other types; the second a finds no unused operation on a.
    expect(score).toBeCloseTo(2 / 3, 6)
    expect(details.incorrectTargets).toEqual([{ expected: { targetBlockId: 'a', targetIndex: null }, actual: { targetBlockId: 'x', targetIndex: null } }])
  })
})

describe('content-quality', () => {
  const actual = { operations: [], blocks: [{ id: 'b1', page: 'Intro', content: 'このページのまとめです。' }, { id: 'b2', page: 'Shop', content: 'Cart added. Cart updated. Cart emptied.' }] }
  it('applies each pattern to its page, ignore-case on request, and lists every miss with an excerpt', () => {
    const expected = { patterns: [
      { page: 'Intro', pattern: '要約|まとめ|サマリー' },
      { page: 'Shop', pattern: 'Cart.*Cart.*Cart' },
      { page: 'Shop', pattern: 'CHECKOUT' },
      { page: 'Shop', pattern: 'cart added', ignore_case: true },
      { pattern: 'total' },
    ] }
    const { score, details } = run('content-quality', actual, expected)
    expect(score).toBe(0.6)
    expect(details.contentIssues).toEqual([
      'Page \'Shop\': Pattern \'CHECKOUT\' not found in content: \'Cart added. Cart updated. Cart emptied.\'',
      'Page \'(all)\': Pattern \'total\' not found in content: \'このページのまとめです。\nCart added. Cart updated. Cart emptied.\'',
    ])
  })

  it('accepts plain-string patterns, each looked for on every page', () => {
    const { score, details } = run('content-quality', actual, { patterns: ['要約|まとめ|サマリー', '.*Cart.*Cart.*Cart.*', '(?i)CART ADDED', 'CHECKOUT'] })
    expect(score).toBe(0.75)
    expect(details.contentIssues).toEqual(['Page \'(all)\': Pattern \'CHECKOUT\' not found in content: \'このページのまとめです。\nCart added. Cart updated. Cart emptied.\''])
    expect(run('content-quality', actual, { patterns: [] }, {}, { patterns: ['まとめ', { page: 'Shop', pattern: 'まとめ' }] }).score).toBe(0.5)
    expect(() => run('content-quality', actual, { patterns: [''] })).toThrow('Scorer "content-quality": expected.patterns[0].pattern: is empty.')
    // A bad pattern in the options is an error, not a pattern silently left out (which would pass with nothing checked).
    expect(() => run('content-quality', actual, { patterns: [] }, {}, { patterns: [42] })).toThrow('Scorer "content-quality": options.patterns[0]: ')
  })

  it('cannot be hung by a catastrophic pattern, and names an invalid one', () => {
    // A backtracking engine would take ~2^40 steps here; the test's own timeout is the bound.
    expect(run('content-quality', { blocks: [{ id: 'x', content: `${'a'.repeat(40)}!` }] }, { patterns: [{ pattern: '^(a+)+$' }] }).score).toBe(0)
    expect(() => run('content-quality', actual, { patterns: [{ pattern: '(unclosed' }] })).toThrow('expected.patterns[0].pattern: the pattern /(unclosed/ is not a valid regular expression')
  })
})

describe('operation-result', () => {
  it('is 0.6 × the share of operations whose target exists in the original + 0.4 × the content score', () => {
    const original = { blocks: [{ id: 'b1', content: 'x' }, { id: 'b2', content: 'y' }] }
    const actual = { operations: [{ type: 'update', targetBlockId: 'b1' }, { type: 'update', targetBlockId: 'b2' }, { type: 'update', targetBlockId: 'ghost' }, { type: 'delete', targetIndex: 1 }], blocks: [{ id: 'b1', content: 'summary here' }] }
    const { score, details } = run('operation-result', actual, { patterns: [{ pattern: 'summary' }, { pattern: 'conclusion' }] }, original)
    // 3 of 4 operations apply (0.75), 1 of 2 patterns match (0.5): 0.6·0.75 + 0.4·0.5 = 0.65
    expect(score).toBe(0.65)
    expect(details).toMatchObject({ applicationSuccessRate: 0.75, contentScore: 0.5, appliedOperations: 3, totalOperations: 4 })
    expect(details.failedOperations).toMatchObject([{ reason: 'block "ghost" is not in the original' }])
  })
})

describe('anti-hallucination', () => {
  const original = { blocks: [{ id: 'b1', content: 'one' }, { id: 'b2', content: 'two' }, { id: 'b3', content: 'three' }] }
  const expected = { operations: [{ type: 'update', targetBlockId: 'b1' }, { type: 'delete', targetBlockId: 'b3' }] }
  it('is 1 when only the expected changes happen', () => {
    expect(run('anti-hallucination', { blocks: [{ id: 'b1', content: 'ONE' }, { id: 'b2', content: 'two' }] }, expected, original).score).toBe(1)
  })
  it.each([
    [{ blocks: [{ id: 'b1', content: 'ONE' }, { id: 'b2', content: 'two' }, { id: 'b9', content: 'new!' }] }, 'new block ids', ['b9']],
    [{ blocks: [{ id: 'b1', content: 'ONE' }] }, 'unexpected deletion', ['b2']],
    [{ blocks: [{ id: 'b1', content: 'ONE' }, { id: 'b2', content: 'TWO' }] }, 'change outside the expected targets', ['b2']],
  ])('is 0 and names the rule: %#', (actual, rule, blocks) => {
    const { score, details } = run('anti-hallucination', actual, expected, original)
    expect(score).toBe(0)
    expect(details.broken).toEqual([{ rule, blocks }])
  })
  it('accepts a new block only where an expected insert places it: next to its target, on its side', () => {
    const original = { blocks: [{ id: 'b1', content: 'one' }, { id: 'b2', content: 'two' }, { id: 'b3', content: 'three' }] }
    const insert = (targetBlockId: string, position: 'before' | 'after') => ({ operations: [{ type: 'insert', targetBlockId, position }] })
    const blocks = (...ids: string[]) => ({ blocks: ids.map(id => ({ id, content: original.blocks.find(b => b.id === id)?.content ?? 'new text' })) })
    expect(run('anti-hallucination', blocks('b1', 'n1', 'b2', 'b3'), insert('b1', 'after'), original).score).toBe(1)
    expect(run('anti-hallucination', blocks('b1', 'b2', 'n1', 'b3'), insert('b3', 'before'), original).score).toBe(1)
    expect(run('anti-hallucination', blocks('n1', 'b1', 'b2', 'b3'), insert('b1', 'before'), original).score).toBe(1)
    // The same one new block anywhere else is invented: elsewhere, or on the other side of its target.
    for (const [output, expected] of [[blocks('b1', 'b2', 'n1', 'b3'), insert('b1', 'after')], [blocks('n1', 'b1', 'b2', 'b3'), insert('b1', 'after')], [blocks('b1', 'b2', 'b3', 'n1'), insert('b2', 'after')]] as const) {
      const { score, details } = run('anti-hallucination', output, expected, original)
      expect(score).toBe(0)
      expect(details).toMatchObject({ noNewContent: false, broken: [{ rule: 'new block ids', blocks: ['n1'] }] })
    }
    // Two expected inserts after b1 place two blocks there, one after b1 and one before b2 place a run of two.
    const two = { operations: [...insert('b1', 'after').operations, ...insert('b1', 'after').operations] }
    expect(run('anti-hallucination', blocks('b1', 'n1', 'n2', 'b2', 'b3'), two, original).score).toBe(1)
    expect(run('anti-hallucination', blocks('b1', 'n1', 'n2', 'b2', 'b3'), { operations: [...insert('b1', 'after').operations, ...insert('b2', 'before').operations] }, original).score).toBe(1)
    expect(run('anti-hallucination', blocks('b1', 'n1', 'b2', 'n2', 'b3'), two, original).details.broken).toEqual([{ rule: 'new block ids', blocks: ['n2'] }])
    // An insert by index is placed against the original's block at that index.
    expect(run('anti-hallucination', blocks('b1', 'b2', 'n1', 'b3'), { operations: [{ type: 'insert', targetIndex: 1, position: 'after' }] }, original).score).toBe(1)
    // An insert only places a block: it does not allow its target to be changed.
    const changed = run('anti-hallucination', { blocks: [{ id: 'b1', content: 'ONE' }, { id: 'n1', content: 'new' }, ...original.blocks.slice(1)] }, insert('b1', 'after'), original)
    expect(changed.details.broken).toEqual([{ rule: 'change outside the expected targets', blocks: ['b1'] }])
    expect(run('anti-hallucination', { operations: [{ type: 'update', targetBlockId: 'b1' }, { type: 'insert', targetBlockId: 'b1', position: 'after' }] }, insert('b1', 'after'), original).details.broken)
      .toEqual([{ rule: 'change outside the expected targets', blocks: ['b1'] }])
    // An expected insert without a target says nothing of where its block goes: one new block anywhere.
    expect(run('anti-hallucination', blocks('b1', 'b2', 'b3', 'n1'), { operations: [{ type: 'insert' }] }, original).score).toBe(1)
    expect(run('anti-hallucination', blocks('n1', 'b1', 'b2', 'b3', 'n2'), { operations: [{ type: 'insert' }] }, original).details.broken).toEqual([{ rule: 'new block ids', blocks: ['n2'] }])
  })

  it('works from the operations when no blocks are given', () => {
    const { score, details } = run('anti-hallucination', { operations: [{ type: 'update', targetBlockId: 'b1' }, { type: 'delete', targetBlockId: 'b2' }] }, expected, original)
    expect(score).toBe(0)
    expect(details.broken).toEqual([{ rule: 'unexpected deletion', blocks: ['b2'] }])
  })
})

describe('everyday checks', () => {
  it('response-time: full marks up to the limit, then down linearly', () => {
    expect(run('response-time', { durationMs: 1200 }, {}, {}, { max_acceptable_ms: 2000 }).score).toBe(1)
    expect(run('response-time', { durationMs: 3000 }, {}, {}, { max_acceptable_ms: 2000 }).score).toBe(0.5)
    expect(run('response-time', { durationMs: 5000 }, {}, {}, { max_acceptable_ms: 2000 })).toEqual({ score: 0, details: { responseTimeMs: 5000, maxAcceptableMs: 2000, passed: false } })
  })
  it.each([
    ['exact-match', ' Paris ', 'Paris', {}, 1], ['exact-match', 'paris', 'Paris', {}, 0], ['exact-match', 'paris', 'Paris', { ignore_case: true }, 1],
    ['contains', 'Paris is big', null, { values: ['Paris', 'big', 'old'] }, 2 / 3],
    ['regex', 'Order #1234', '#\\d{4}', {}, 1], ['regex', 'Order', '#\\d+', {}, 0],
    ['json-valid', '```json\n{"a": 1}\n```', null, {}, 1], ['json-valid', '{"a": ', null, {}, 0],
    ['json-schema', '{"name": "x", "age": 3}', { type: 'object', required: ['name', 'age'], properties: { age: { type: 'number' } } }, {}, 1],
    ['json-schema', '{"name": "x", "age": "3"}', { type: 'object', properties: { age: { type: 'number' } } }, {}, 0],
    ['json-diff', { a: 1, b: { c: 2, d: [1, 2] } }, { a: 1, b: { c: 3, d: [1, 2] } }, {}, 0.75],
    ['levenshtein', 'kitten', 'sitting', {}, 1 - 3 / 7],
    ['numeric-diff', 98, 100, {}, 0.98], ['numeric-diff', '101', 100, { tolerance: 2 }, 1],
  ])('%s(%j, %j, %j) = %d', (type, actual, expected, options, score) => {
    expect(run(type, actual, expected, {}, options).score).toBeCloseTo(score as number, 5)
  })
  it('levenshtein counts code points (Japanese too)', () => {
    expect(levenshteinDistance('要約です', '要点です')).toBe(1)
    expect(levenshteinDistance('', 'abc')).toBe(3)
  })
  it('takes what it compares with from its option, else from expected, and says where to give it when neither has it', () => {
    expect(run('contains', 'Paris is big', ['Paris', 'old'], {}, { value: 'big' })).toEqual({ score: 1, details: { missing: [] } })
    expect(run('contains', 'Paris is big', ['Paris', 'old']).details).toEqual({ missing: ['old'] })
    expect(run('regex', 'Order #12', 'nothing', {}, { pattern: '#\\d+' }).details).toEqual({ pattern: '#\\d+', match: '#12', index: 6 })
    expect(run('json-schema', '{"a": 1}', { type: 'string' }, {}, { schema: { type: 'object' } })).toEqual({ score: 1, details: { valid: true, errors: [] } })
    expect(() => run('contains', 'text', null, {}, { values: ['a', ''] })).toThrow('Scorer "contains" needs the text(s) to look for: options.values or expected.')
    expect(() => run('regex', 'text', null)).toThrow('Scorer "regex" needs a pattern: options.pattern or expected.')
    expect(() => run('json-schema', '{}', 'not a schema')).toThrow('Scorer "json-schema" needs a JSON Schema: options.schema or expected.')
    // An output that is not JSON fails before any schema is needed.
    expect(run('json-schema', '{', null).details).toEqual({ valid: false, errors: [expect.stringMatching(/^not valid JSON: /)] })
  })
  // On a backtracking engine `^(a+)+$` against 40 a's and a '!' takes hours; the per-test timeout is the bound.
  it('json-schema runs pattern and patternProperties on RE2: a catastrophic pattern finishes and does not match', { timeout: 5_000 }, () => {
    const hostile = `${'a'.repeat(40)}!`
    expect(run('json-schema', JSON.stringify(hostile), { type: 'string', pattern: '^(a+)+$' }).details).toEqual({ valid: false, errors: ['(root) must match pattern "^(a+)+$"'] })
    expect(run('json-schema', JSON.stringify({ [hostile]: 1 }), { type: 'object', patternProperties: { '^(a+)+$': { type: 'string' } } }).score).toBe(1)
    expect(run('json-schema', JSON.stringify({ aaaa: 1 }), { type: 'object', patternProperties: { '^(a+)+$': { type: 'string' } } }).score).toBe(0)
  })
  it('json-schema keeps each pattern its own and refuses one RE2 cannot run, naming the scorer and the pattern', () => {
    const schema = { type: 'object', properties: { a: { pattern: '^x' }, b: { pattern: '^y' } } }
    expect(run('json-schema', '{"a": "x1", "b": "y1"}', schema).score).toBe(1)
    expect(run('json-schema', '{"a": "x1", "b": "x1"}', schema).details).toEqual({ valid: false, errors: ['/b must match pattern "^y"'] })
    expect(() => run('json-schema', '"aa"', { pattern: '(a)\\1' })).toThrow('Scorer "json-schema": schema pattern: the pattern /(a)\\1/ is not a valid regular expression')
    expect(() => run('json-schema', '{}', { patternProperties: { '^(?=x)': { type: 'string' } } })).toThrow('Scorer "json-schema": schema pattern: the pattern /^(?=x)/ is not a valid regular expression')
  })
  it('json-diff lists the differing paths', () => {
    expect(run('json-diff', { a: 1, x: true }, { a: 2, y: null }).details.differences).toEqual(['$.a: 1 instead of 2', '$.x: unexpected true', '$.y: missing (expected null)'])
  })
})

describe('the scorers evaluation type', () => {
  const data = {
    actual: { operations: [{ type: 'update', targetBlockId: 'b1', content: 'まとめ: ok' }], blocks: [{ id: 'b1', page: 'Intro', content: 'まとめ: ok' }, { id: 'b2', page: 'Intro', content: 'two' }] },
    expected: { operations: [{ type: 'update', targetBlockId: 'b1' }, { type: 'insert', targetBlockId: 'b2', position: 'after' }], patterns: [{ page: 'Intro', pattern: '要約|まとめ' }] },
    original: { blocks: [{ id: 'b1', content: 'one' }, { id: 'b2', content: 'two' }] },
  }

  it('passes only when every scorer reaches its threshold (AND); the score is the weighted mean', async () => {
    const result = await evaluate({ evaluation_type: 'scorers', scorers: [
      { type: 'operation-accuracy', weight: 2, threshold: 0.5 },
      { type: 'content-quality', weight: 1, threshold: 0.6 },
      { type: 'target-block-precision', weight: 1, threshold: 0.75 },
    ] }, data, { providers })
    // accuracy 0.5, content 1, precision 0.5: (2·0.5 + 1 + 0.5) / 4 = 0.625; precision < 0.75 fails the AND
    expect(result.overall_score).toBe(0.625)
    expect(result.passed).toBe(false)
    expect(result.criteria_scores).toEqual({ 'operation-accuracy': 0.5, 'content-quality': 1, 'target-block-precision': 0.5 })
    expect(result.feedback).toBe('Below threshold: target-block-precision 0.5 < 0.75.')
    expect(result.scorer_results!.map(r => r.passed)).toEqual([true, true, false])
  })

  it.each([
    ['standard', 3, (0.5 + 0.5 + 1) / 3],
    ['strict', 4, (0.5 + 0.5 + 1 + 2 * 1) / 5],
    ['operation-focused', 3, (2 * 0.5 + 1.5 * 0.5 + 0.5 * 1) / 4],
  ])('preset %s', async (preset, count, overall) => {
    const result = await evaluate({ evaluation_type: 'scorers', preset: preset as 'standard' }, data, { providers })
    expect(result.scorer_results).toHaveLength(count)
    expect(result.overall_score).toBeCloseTo(overall, 6)
    expect(result.passed).toBe(false)
  })

  it('refuses an unknown scorer, listing the available ones, and a preset with a list', async () => {
    await expect(evaluate({ evaluation_type: 'scorers', scorers: [{ type: 'vibes' }] }, data, { providers })).rejects.toThrow('scorers[0].type: unknown scorer "vibes"; available scorers: operation-accuracy, target-block-precision,')
    await expect(evaluate({ evaluation_type: 'scorers', preset: 'strict', scorers: [{ type: 'regex' }] }, data, { providers })).rejects.toThrow('preset: give either scorers or a preset, not both')
    await expect(evaluate({ evaluation_type: 'scorers', preset: 'lenient' as 'strict' }, data, { providers })).rejects.toThrow('preset: must be one of standard, strict, operation-focused')
  })
})

describe('scorer registry', () => {
  it('registers every built-in module', () => {
    const dir = join(import.meta.dirname, '../../../engine/scorers/builtin')
    // One module per scorer, each exporting one definition, each registered.
    const modules = readdirSync(dir).map(file => [...readFileSync(join(dir, file), 'utf8').matchAll(/export const (\w+) = define(?:Edit)?Scorer\(/g)].length)
    expect(modules.every(n => n === 1)).toBe(true)
    expect(modules.length).toBe(builtinScorers.length)
    expect(new ScorerRegistry().types()).toEqual(builtinScorers.map(s => s.type))
    expect(new ScorerRegistry().types()).toEqual(expect.arrayContaining(['operation-accuracy', 'target-block-precision', 'content-quality', 'operation-result', 'anti-hallucination', 'response-time', 'exact-match', 'contains', 'regex', 'json-valid', 'json-schema', 'json-diff', 'levenshtein', 'numeric-diff']))
  })

  it('loads custom scorers from a folder and runs them by type', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'judgeflow-scorers-'))
    writeFileSync(join(folder, 'word-count.mjs'), 'export default { type: "word-count", description: "At most 5 words", defaultThreshold: 1, score: (actual) => (String(actual).split(/\\s+/).length <= 5 ? 1 : 0), details: (actual) => ({ words: String(actual).split(/\\s+/).length }) }\n')
    const registry = new ScorerRegistry()
    expect(await loadScorersFolder(folder, registry)).toEqual(['word-count'])
    const result = await evaluate({ evaluation_type: 'scorers', scorers: [{ type: 'word-count' }] }, { actual: 'one two three' }, { providers, scorers: registry })
    expect(result).toMatchObject({ passed: true, overall_score: 1, scorer_results: [{ type: 'word-count', details: { words: 3 } }] })
  })
})

describe('a scorers evaluator as a quality gate', () => {
  it('fails the first edit (wrong target, pattern missing), retries, and passes the second', async () => {
    const { runWorkflow, defaultRegistry } = await import('../../../engine')
    const read = (name: string) => JSON.parse(readFileSync(join(import.meta.dirname, `../../../examples/${name}.json`), 'utf8'))
    const events: Array<{ type: string, node_id?: string, step?: { node_id: string, attempt: number, output?: any } }> = []
    const result = await runWorkflow(read('edit-gate-scorers'), { registry: defaultRegistry, providers, input: read('edit-gate-input'), onEvent: (e) => { events.push(e as never) } })
    expect(result).toMatchObject({ status: 'succeeded', verdict: 'pass', output: 1 })
    const scores = events.filter(e => e.type === 'step.succeeded' && e.step!.node_id === 'score').map(e => e.step!.output)
    expect(scores.map(s => [s.passed, s.overall_score])).toEqual([[false, 0], [true, 1]])
    expect(scores[0].scorer_results[0].details.unmatchedOperations[0].reason).toBe('target mismatch')
  })
})

describe('edge cases found in review', () => {
  it('refuses to score with nothing expected, instead of passing', async () => {
    await expect(evaluate({ evaluation_type: 'scorers', preset: 'standard' }, { actual: { operations: [{ type: 'delete', targetBlockId: 'x' }] } }, { providers }))
      .rejects.toThrow('expected: is missing, and the scorers "operation-accuracy" (preset standard)')
    await expect(evaluate({ evaluation_type: 'scorers', scorers: [{ type: 'exact-match' }] }, {}, { providers })).rejects.toThrow('expected: is missing, and the scorer "exact-match" (scorers[0]) compares the output with it')
  })

  it('anti-hallucination catches an unexpected insert and an operation on a block that does not exist', () => {
    const original = { blocks: [{ id: 'b1', content: 'one' }, { id: 'b2', content: 'two' }] }
    const insert = run('anti-hallucination', { operations: [{ type: 'update', targetBlockId: 'b1' }, { type: 'insert', targetBlockId: 'b2', position: 'after', content: 'invented' }] }, { operations: [{ type: 'update', targetBlockId: 'b1' }] }, original)
    expect(insert.score).toBe(0)
    expect(insert.details.broken).toEqual([{ rule: 'new block ids', blocks: ['insert after b2'] }])
    const ghost = run('anti-hallucination', { operations: [{ type: 'insert', targetBlockId: 'b1', position: 'after' }, { type: 'update', targetBlockId: 'zzz' }] }, { operations: [{ type: 'insert', targetBlockId: 'b1', position: 'after' }] }, original)
    expect(ghost.details.broken).toEqual([{ rule: 'new block ids', blocks: ['zzz'] }])
  })

  it('resolves expected operations given by index against the original', () => {
    const original = { blocks: [{ id: 'b1', content: 'one' }, { id: 'b2', content: 'two' }] }
    expect(run('anti-hallucination', { blocks: [{ id: 'b2', content: 'two' }] }, { operations: [{ type: 'delete', targetIndex: 0 }] }, original).score).toBe(1)
    expect(run('operation-accuracy', { operations: [{ type: 'update', targetBlockId: 'b1', targetIndex: 0 }] }, { operations: [{ type: 'update', targetIndex: 0 }] }).score).toBe(1)
  })

  it('matches 20,000 operations on one target (chains, no rescans), reporting every miss', () => {
    const ops = Array.from({ length: 20_000 }, () => ({ type: 'update', targetBlockId: 'b1' }))
    const result = run('operation-accuracy', { operations: ops }, { operations: ops.map(o => ({ ...o, type: 'delete' })) })
    expect(result.score).toBe(0)
    expect((result.details.unmatchedOperations as unknown[]).length).toBe(20_000)
    expect(run('operation-accuracy', { operations: ops }, { operations: ops.slice(0, 15_000) }).score).toBe(1)
  })

  it('uses an operation with both an id and an index once, and matches untargeted operations among themselves', () => {
    const both = { operations: [{ type: 'update', targetBlockId: 'b1', targetIndex: 0 }] }
    const twice = run('operation-accuracy', both, { operations: [{ type: 'update', targetBlockId: 'b1' }, { type: 'update', targetIndex: 0 }] })
    expect(twice.score).toBe(0.5)
    expect(twice.details.unmatchedOperations).toEqual([{ expected: { type: 'update', targetIndex: 0 }, reason: 'target mismatch' }])
    expect(run('target-block-precision', both, { operations: [{ type: 'update', targetBlockId: 'b1' }, { type: 'update', targetIndex: 0 }] }).score).toBe(0.5)
    const untargeted = run('operation-accuracy', { operations: [{ type: 'insert', content: 'x' }, { type: 'insert', content: 'y', position: 'before' }] }, { operations: [{ type: 'insert' }, { type: 'insert' }, { type: 'update' }] })
    expect(untargeted.score).toBeCloseTo(1 / 3, 6)
    expect(untargeted.details.unmatchedOperations).toEqual([{ expected: { type: 'insert' }, reason: 'position mismatch' }, { expected: { type: 'update' }, reason: 'type mismatch' }])
  })

  it('anti-hallucination keeps every block of a repeated id in the original when the output has it', () => {
    const original = { blocks: [{ id: 'b1', content: 'one' }, { id: 'b1', content: 'one' }, { id: 'b2', content: 'two' }] }
    expect(run('anti-hallucination', { blocks: [{ id: 'b1', content: 'one' }, { id: 'b2', content: 'two' }] }, { operations: [] }, original).score).toBe(1)
    const gone = run('anti-hallucination', { blocks: [{ id: 'b2', content: 'changed' }] }, { operations: [] }, original)
    expect(gone.details.broken).toEqual([{ rule: 'unexpected deletion', blocks: ['b1', 'b1'] }, { rule: 'change outside the expected targets', blocks: ['b2'] }])
  })

  it('re-parses data changed in place between two evaluations', async () => {
    const data = { actual: { operations: [{ type: 'update', targetBlockId: 'b1' }] }, expected: { operations: [{ type: 'update', targetBlockId: 'b1' }, { type: 'delete', targetBlockId: 'b2' }] } }
    const first = await evaluate({ evaluation_type: 'scorers', scorers: [{ type: 'operation-accuracy' }] }, data, { providers })
    data.actual.operations.push({ type: 'delete', targetBlockId: 'b2' })
    const second = await evaluate({ evaluation_type: 'scorers', scorers: [{ type: 'operation-accuracy' }] }, data, { providers })
    expect([first.overall_score, second.overall_score]).toEqual([0.5, 1])
  })

  it('a custom scorer answering outside [0, 1] is an error, never a pass', async () => {
    const registry = new ScorerRegistry()
    registry.register({ type: 'generous', score: () => 1.5 })
    await expect(evaluate({ evaluation_type: 'scorers', scorers: [{ type: 'generous' }] }, { actual: 'x' }, { providers, scorers: registry }))
      .rejects.toThrow('Scorer "generous" returned 1.5, not a score from 0 to 1.')
  })
})

describe('scorer data problems', () => {
  it('end as one sentence: a message ending in a question takes no full stop after it', async () => {
    const { parseData } = await import('../../../engine/scorers/types')
    const { strictObject } = await import('../../../engine/schema/unknown-keys')
    const { z } = await import('zod')
    const schema = strictObject({ operations: z.array(z.unknown()).optional() }, 'the edit')
    expect(() => parseData(schema, { operatons: [] }, 'actual', 'operation-accuracy'))
      .toThrow(/^Scorer "operation-accuracy": actual: unknown key "operatons" in the edit: did you mean "operations"\?$/)
    expect(() => parseData(z.object({ blocks: z.array(z.string()) }), { blocks: 'x' }, 'expected', 'target-block-precision'))
      .toThrow(/^Scorer "target-block-precision": expected\.blocks: .*[^.]\.$/)
  })
})
