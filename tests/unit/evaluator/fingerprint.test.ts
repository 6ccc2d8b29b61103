import { describe, expect, it } from 'vitest'
import { evaluate, resolveEvaluatorConfig, type EvaluatorConfigInput } from '../../../engine'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { changedParts, canonical, FINGERPRINT_PARTS, judgeFingerprint, sha256Hex } from '../../../engine/evaluator/fingerprint'
import { EVALUATOR_STEP_FIELDS } from '../../../engine/evaluation-types/fields'
import { fingerprintOf } from '../../../engine/evaluator'
import { useFakeJudge } from '../../support/fake-judge'

const { fake, providers } = useFakeJudge()
const base: EvaluatorConfigInput = {
  evaluation_type: 'rubric', model: 'openai:gpt-4o-mini', pass_threshold: 0.7,
  criteria: [{ name: 'accuracy', description: 'Facts are right', weight: 0.6 }, { name: 'tone', description: 'Polite', weight: 0.4 }],
  rubric: { grades: [{ grade: 'A', min_score: 0.8 }, { grade: 'F', min_score: 0 }] },
}
const fingerprint = (config: Partial<EvaluatorConfigInput> | Record<string, unknown> = {}) => fingerprintOf(resolveEvaluatorConfig({ ...base, ...config }, 'local:heuristic'))

describe('a judge\'s fingerprint', () => {
  const before = fingerprint()

  it('is the same for the same judge, whatever it judges and however the calls are made', () => {
    expect(before.fingerprint).toMatch(/^[0-9a-f]{16}$/)
    expect(fingerprint().fingerprint).toBe(before.fingerprint)
    expect(fingerprint({ cache: false, concurrency: 2, max_retries: 5 }).fingerprint).toBe(before.fingerprint)
    // Keys in another order are the same config.
    const reordered = Object.fromEntries(Object.entries(base).reverse())
    expect(fingerprintOf(resolveEvaluatorConfig(reordered, 'local:heuristic')).fingerprint).toBe(before.fingerprint)
  })

  it('leaves out every field of the evaluator step that is not its config (what is judged), but not an evaluator config\'s trace settings', () => {
    const config = { evaluation_type: 'trace', model: 'local:deterministic', trace: { embedder: 'hashed' } }
    const judge = judgeFingerprint(config, []).fingerprint
    for (const field of EVALUATOR_STEP_FIELDS) {
      const withIt = judgeFingerprint({ ...config, [field]: { judged: field } }, []).fingerprint
      expect([field, withIt === judge]).toEqual([field, field !== 'trace'])
    }
  })

  it('names the part that changed', () => {
    const changed = (config: Record<string, unknown>) => changedParts(before.parts, fingerprint(config).parts)
    expect(changed({ model: 'openai:gpt-4o' })).toEqual(['models'])
    expect(changed({ temperature: 0.5 })).toEqual(['prompt'])
    expect(changed({ criteria: [{ name: 'accuracy', description: 'Every fact is right', weight: 0.6 }, { name: 'tone', description: 'Polite', weight: 0.4 }] })).toEqual(['criteria'])
    expect(changed({ rubric: { grades: [{ grade: 'A', min_score: 0.85 }, { grade: 'F', min_score: 0 }] } })).toEqual(['rubric'])
    expect(changed({ criteria: [{ name: 'accuracy', description: 'Facts are right', weight: 0.5 }, { name: 'tone', description: 'Polite', weight: 0.5 }] })).toEqual(['weights'])
    expect(changed({ pass_threshold: 0.75 })).toEqual(['threshold'])
    expect(changed({ model: undefined, judges: ['openai:gpt-4o-mini', 'anthropic:claude-3-5-haiku'] })).toEqual(['models'])
    for (const part of FINGERPRINT_PARTS) expect(before.parts[part]).toMatch(/^[0-9a-f]{12}$/)
  })

  it('is in every evaluator result, with its parts', async () => {
    fake.onRequest(() => ({ json: { criteria_scores: { accuracy: 0.9, tone: 0.9 }, criteria_reasons: { accuracy: 'a', tone: 't' }, feedback: 'ok', suggestions: [] } }))
    const result = await evaluate(base, { content: 'Paris is the capital of France.' }, { providers: providers() })
    expect(result.judge_fingerprint).toBe(before.fingerprint)
    expect(result.judge.fingerprint_parts).toEqual(before.parts)
    const offline = await evaluate({ evaluation_type: 'scorers', scorers: [{ type: 'regex', options: { pattern: 'Paris' } }] }, { content: 'Paris.' }, { providers: providers() })
    expect(offline.judge_fingerprint).toMatch(/^[0-9a-f]{16}$/)
  })

  it('hashes canonical JSON: keys sorted, undefined left out', () => {
    expect(canonical({ b: 1, a: [{ d: undefined, c: 'x' }] })).toBe('{"a":[{"c":"x"}],"b":1}')
  })
})

describe('the fingerprint\'s hash', () => {
  it('is Node\'s SHA-256 on the server and the portable one in the browser, the same digest for any text', () => {
    for (const text of ['abc', '', '{"criteria":["é","日本"]}', 'lone \ud800 surrogate', 'x'.repeat(10_000)]) {
      expect(sha256Hex(text)).toBe(bytesToHex(sha256(utf8ToBytes(text))))
    }
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
  })
})
