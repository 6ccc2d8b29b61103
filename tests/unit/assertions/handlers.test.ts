import { describe, expect, it } from 'vitest'
import { assertionProblems, ASSERTION_HANDLERS } from '../../../engine/assertions/registry'
import { runAssertions } from '../../../engine/assertions/run'
import { splitList } from '../../../engine/assertions/text'
import { isRefusal } from '../../../engine/assertions/response'
import { bleu, rougeN } from '../../../engine/assertions/overlap-scores'
import type { Assertion } from '../../../engine/assertions/types'

const grade = (output: unknown, list: Assertion[], threshold?: number) => runAssertions(list, { output, vars: {} }, {}, threshold)
const one = async (output: unknown, assertion: Assertion) => (await grade(output, [assertion])).assertions[0]!

describe('promptfoo assertions, graded as promptfoo grades them', () => {
  it('each text check and its not- form', async () => {
    const cases: Array<[string, Assertion, boolean]> = [
      ['Hello world', { type: 'equals', value: 'Hello world' }, true],
      ['Hello world ', { type: 'equals', value: 'Hello world' }, false],
      ['{"a":1,"b":[2]}', { type: 'equals', value: { b: [2], a: 1 } }, true],
      ['Hello world', { type: 'contains', value: 'world' }, true],
      ['Hello world', { type: 'not-contains', value: 'world' }, false],
      ['Hello World', { type: 'icontains', value: 'world' }, true],
      ['Hello World', { type: 'not-icontains', value: 'WORLD' }, false],
      ['red, green', { type: 'contains-any', value: 'blue, green' }, true],
      ['red', { type: 'contains-any', value: ['blue', 'green'] }, false],
      ['Red Green', { type: 'icontains-all', value: ['red', 'green'] }, true],
      ['Red', { type: 'contains-all', value: 'Red, Green' }, false],
      ['a "b, c" d', { type: 'contains-any', value: '"b, c", zzz' }, true],
      ['Hello world', { type: 'starts-with', value: 'Hello' }, true],
      ['Hello world', { type: 'not-starts-with', value: 'Hello' }, false],
      ['order 12345', { type: 'regex', value: '\\d{5}' }, true],
      ['order 12345', { type: 'not-regex', value: '\\d{5}' }, false],
      ['kitten', { type: 'levenshtein', value: 'sitting', threshold: 3 }, true],
      ['kitten', { type: 'levenshtein', value: 'sitting', threshold: 2 }, false],
    ]
    for (const [output, assertion, pass] of cases) expect([output, assertion, (await one(output, assertion)).pass]).toEqual([output, assertion, pass])
  })

  it('is-json takes the whole output: a fenced block fails, as in promptfoo; contains-json finds it', async () => {
    const fenced = '```json\n{"a": 1}\n```'
    expect((await one(fenced, { type: 'is-json' })).pass).toBe(false)
    expect((await one('{"a": 1}', { type: 'is-json' })).pass).toBe(true)
    expect((await one(fenced, { type: 'contains-json' })).pass).toBe(true)
    const schema = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } }
    expect((await one('{"name": 3}', { type: 'is-json', value: schema })).reason).toMatch(/does not conform/)
    expect((await one('{"name": "x"}', { type: 'is-json', value: 'type: object\nrequired: [name]' })).pass).toBe(true)
    expect((await one('here {"name": 3} and {"name": "y"}', { type: 'contains-json', value: schema })).pass).toBe(true)
    expect((await one('{"a": 1}', { type: 'not-is-json' })).pass).toBe(false)
  })

  it('is-xml and contains-xml, with required elements as dotted paths', async () => {
    const xml = '<root><user><name>Ann</name></user></root>'
    expect((await one(xml, { type: 'is-xml', value: 'root.user.name' })).pass).toBe(true)
    expect((await one(xml, { type: 'is-xml', value: ['root.user.email'] })).reason).toMatch(/missing required elements: root.user.email/)
    expect((await one(`Text before ${xml} after`, { type: 'is-xml' })).pass).toBe(false)
    expect((await one(`Text before ${xml} after`, { type: 'contains-xml', value: { requiredElements: ['root.user'] } })).pass).toBe(true)
    expect((await one('<a><b></a>', { type: 'is-xml' })).pass).toBe(false)
  })

  it('rouge-n and bleu score the overlap and pass at their default thresholds', async () => {
    expect(rougeN('the cat sat on the mat', 'the cat sat on the mat')).toBe(1)
    expect(bleu('the cat sat on the mat', ['the cat sat on the mat'])).toBeCloseTo(1, 6)
    const r = await one('The cat sat on a mat', { type: 'rouge-n', value: 'the cat sat on the mat' })
    expect(r.score).toBeCloseTo(rougeN('the cat sat on a mat', 'the cat sat on the mat'), 10)
    expect(r.pass).toBe(r.score >= 0.75)
    const inverted = await one('The cat sat on a mat', { type: 'not-rouge-n', value: 'the cat sat on the mat' })
    expect(inverted.score).toBeCloseTo(1 - r.score, 10)
    expect((await one('completely different words here', { type: 'bleu', value: 'the cat sat on the mat' })).pass).toBe(false)
  })

  it('is-refusal reads apologies and declining phrases; latency needs a threshold and a measure', async () => {
    expect(isRefusal('I\u2019m sorry, but I can\u2019t do that.')).toBe(true)
    expect(isRefusal('Sure! As requested, here it is.')).toBe(false)
    expect(isRefusal('Well, I cannot help with that one.')).toBe(true)
    expect((await one('', { type: 'is-refusal' })).pass).toBe(true)
    expect((await one('Here you go.', { type: 'not-is-refusal' })).pass).toBe(true)
    const fast = await runAssertions([{ type: 'latency', threshold: 500 }], { output: 'x', vars: {}, latencyMs: 120 }, {})
    expect(fast.pass).toBe(true)
    await expect(grade('x', [{ type: 'latency', threshold: 500 }])).rejects.toThrow(/latency is not known/)
  })

  it('adds up as promptfoo: every assertion must pass; a test threshold over weighted scores overrides that', async () => {
    const list: Assertion[] = [
      { type: 'contains', value: 'Paris', weight: 3, metric: 'facts' },
      { type: 'contains', value: 'France', weight: 1, metric: 'facts' },
      { type: 'not-icontains', value: 'sorry', weight: 1 },
    ]
    const failing = await grade('Paris is lovely. Sorry!', list)
    expect(failing.pass).toBe(false)
    expect(failing.score).toBeCloseTo(3 / 5, 10)
    expect(failing.named_scores.facts).toBeCloseTo(3 / 4, 10)
    expect((await grade('Paris is lovely. Sorry!', list, 0.6)).pass).toBe(true)
    expect((await grade('Paris is lovely. Sorry!', list, 0.7)).pass).toBe(false)
    // Weight 0 counts for nothing and never fails the test.
    const zero = await grade('Paris', [{ type: 'contains', value: 'Paris' }, { type: 'contains', value: 'Rome', weight: 0 }])
    expect(zero).toMatchObject({ pass: true, score: 1 })
  })

  it('an assert-set is one assertion with its own threshold', async () => {
    const set: Assertion = { type: 'assert-set', threshold: 0.5, assert: [{ type: 'contains', value: 'a' }, { type: 'contains', value: 'zzz' }] }
    const graded = await grade('abc', [set])
    expect(graded.pass).toBe(true)
    expect(graded.assertions[0]).toMatchObject({ type: 'assert-set', pass: true, score: 0.5 })
    expect(graded.assertions[0]!.components).toHaveLength(2)
  })

  it('problems are found before running, naming the assertion', () => {
    expect(assertionProblems({ type: 'contains' }, 'tests[0].assert[1]')).toEqual(['tests[0].assert[1] (contains): must have a text or number value'])
    expect(assertionProblems({ type: 'webhook', value: 'x' }, 'a')).toEqual(['a: "webhook" is not an assertion type judgeflow runs'])
    expect(assertionProblems({ type: 'regex', value: '(a)\\1' }, 'a')[0]).toMatch(/RE2/)
    expect(assertionProblems({ type: 'latency' }, 'a')).toEqual(['a (latency): must have a threshold in milliseconds'])
    expect(splitList(' a, "b, c" ,d')).toEqual(['a', 'b, c', 'd'])
    for (const type of ['equals', 'contains', 'icontains', 'contains-any', 'icontains-any', 'contains-all', 'icontains-all', 'starts-with', 'regex', 'is-json', 'contains-json', 'is-xml', 'contains-xml', 'levenshtein', 'rouge-n', 'bleu', 'latency', 'is-refusal', 'javascript', 'python', 'llm-rubric']) {
      expect(ASSERTION_HANDLERS.has(type), type).toBe(true)
    }
  })
})
