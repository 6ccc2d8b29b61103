import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createProviders, evaluate, loadScorersFolder, ScorerRegistry, type ScorerContext } from '../../../engine'

const providers = createProviders({ env: {} })

/** A custom scorer as users write them: state in a constructor field, methods on the prototype. */
class ResponseTimeScorer {
  constructor(private maxAcceptableMs: number) {}

  score(actual: { durationMs: number }, _expected: unknown): number {
    if (actual.durationMs <= this.maxAcceptableMs) return 1
    return Math.max(0, 1 - (actual.durationMs - this.maxAcceptableMs) / this.maxAcceptableMs)
  }

  getDetails(actual: { durationMs: number }, _expected: unknown) {
    return { responseTimeMs: actual.durationMs, maxAcceptableMs: this.maxAcceptableMs, passed: actual.durationMs <= this.maxAcceptableMs }
  }
}

const folderWith = (files: Record<string, string>) => {
  const folder = mkdtempSync(join(tmpdir(), 'judgeflow-scorers-'))
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text)
  return folder
}

describe('custom scorers written to the score / getDetails interface', () => {
  it('registers a class instance (score and getDetails on the prototype) and runs it with its own fields', async () => {
    const registry = new ScorerRegistry()
    expect(registry.register(new ResponseTimeScorer(1000), 'response-budget')).toBe('response-budget')
    const result = await evaluate({ evaluation_type: 'scorers', scorers: [{ type: 'response-budget', threshold: 0.5 }] }, { actual: { durationMs: 1500 } }, { providers, scorers: registry })
    expect(result).toMatchObject({ passed: true, overall_score: 0.5, scorer_results: [{ type: 'response-budget', score: 0.5, details: { responseTimeMs: 1500, maxAcceptableMs: 1000, passed: false } }] })
  })

  it('loads a module exporting a class instance, typed by its file name unless it sets a type', async () => {
    const folder = folderWith({
      'short-answer.mjs': 'class Short { constructor(max) { this.max = max } score(actual) { return actual.length <= this.max ? 1 : 0 } getDetails(actual) { return { length: actual.length, max: this.max } } }\nexport default new Short(5)\n',
      'named.mjs': 'class Named { get type() { return "has-a-name" } score() { return 1 } }\nexport default new Named()\n',
    })
    const registry = new ScorerRegistry()
    expect(await loadScorersFolder(folder, registry)).toEqual(['has-a-name', 'short-answer'])
    const result = await evaluate({ evaluation_type: 'scorers', scorers: [{ type: 'short-answer' }, { type: 'has-a-name' }] }, { actual: 'too long' }, { providers, scorers: registry })
    expect(result.scorer_results!.map(r => [r.type, r.score, r.threshold, r.details])).toEqual([['short-answer', 0, 0.5, { length: 8, max: 5 }], ['has-a-name', 1, 0.5, {}]])
  })

  it('runs the example scorer (examples/scorers/word-limit.mjs)', async () => {
    const registry = new ScorerRegistry()
    expect(await loadScorersFolder(join(import.meta.dirname, '../../../examples/scorers'), registry)).toEqual(['word-limit'])
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ')
    const result = await evaluate({ evaluation_type: 'scorers', scorers: [{ type: 'word-limit' }] }, { actual: { text: words(60) } }, { providers, scorers: registry })
    expect(result).toMatchObject({ passed: true, overall_score: 0.8, scorer_results: [{ threshold: 0.8, details: { words: 60, maxWords: 50 } }] })
  })

  it('passes { original, options } to the methods as a third argument', () => {
    const registry = new ScorerRegistry()
    registry.register({ type: 'sees-options', score: (_a: unknown, _e: unknown, ctx: ScorerContext) => Number(ctx.options.full), getDetails: (_a: unknown, _e: unknown, ctx: ScorerContext) => ({ original: ctx.original }) })
    const scorer = registry.get('sees-options')!
    expect(scorer.measure(null, null, { original: 'before', options: { full: 1 } }).score).toBe(1)
    expect(scorer.measure(null, null, { original: 'before', options: {} }).details).toEqual({ original: 'before' })
  })

  it('names the file and says what to do when a module exports a class, or a scorer without score()', async () => {
    const classFolder = folderWith({ 'klass.mjs': 'export default class Klass { score() { return 1 } }\n' })
    await expect(loadScorersFolder(classFolder, new ScorerRegistry())).rejects.toThrow(`${join(classFolder, 'klass.mjs')} exports a class or a function, not a scorer: export an instance (export default new MyScorer(...)).`)
    const noScore = folderWith({ 'half.mjs': 'export default { getDetails() { return {} } }\n' })
    await expect(loadScorersFolder(noScore, new ScorerRegistry())).rejects.toThrow(`The scorer "half" (${join(noScore, 'half.mjs')}) has no score(actual, expected) method.`)
    expect(() => new ScorerRegistry().register({ score: () => 1 })).toThrow('A scorer needs a type: give it a `type` property naming it.')
    expect(() => new ScorerRegistry().register({ type: 'regex', score: () => 1 })).toThrow('The scorer "regex" is registered twice')
  })
})
