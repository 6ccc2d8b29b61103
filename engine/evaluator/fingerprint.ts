/**
 * A judge's fingerprint: what decides its verdicts, hashed, so that an agreement measured against
 * people on a dataset is known to hold for this judge and no other. Six parts, each hashed apart so
 * that a stale calibration can say which changed:
 *
 * - models: the judge models (a panel's judges and its verdict rule; a metric suite's per metric);
 * - prompt: the evaluation type, its instructions and settings (a metric's system instruction, the
 *   assertions, temperature, samples, per-criterion asking, feedback), and the version of
 *   judgeflow's own judge prompts;
 * - criteria: each criterion's name and description;
 * - rubric: the grade bands;
 * - weights: the criteria's or metrics' weights;
 * - threshold: the pass threshold (and an assertion suite's `threshold`).
 *
 * Left out: what is judged (content, context, reference, candidates and the references that fill
 * them) and how the calls are made (cache, concurrency, retries). Each part is the SHA-256 of its
 * canonical JSON (keys sorted), cut to 12 hex digits; the fingerprint is the SHA-256 of the parts in
 * order, cut to 16. Browser-safe: the editor computes it for the step being edited.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { EVALUATOR_STEP_FIELDS } from '../evaluation-types/fields'

/** Raised when judgeflow's own judge prompts change in a way that moves verdicts: every calibration then goes stale. */
export const JUDGE_PROMPTS_VERSION = 1

export const FINGERPRINT_PARTS = ['models', 'prompt', 'criteria', 'rubric', 'weights', 'threshold'] as const
export type FingerprintPart = (typeof FINGERPRINT_PARTS)[number]

export interface JudgeFingerprint {
  fingerprint: string
  parts: Record<FingerprintPart, string>
}

/**
 * Not part of the judge: what is judged (the evaluator step's fields that are not its config,
 * EVALUATOR_STEP_FIELDS, and what fills them: `compare_inputs`, the assertions' `vars`), how the
 * calls are made, and what resolving the config noted (`declared`). One step field is the judge's
 * own: `trace`, which in the step is the trace to score but in an evaluator config is its trace
 * settings (the step's `trace_options`), so it stays in the prompt part.
 */
const NOT_THE_JUDGE = new Set([
  ...[...EVALUATOR_STEP_FIELDS].filter(field => field !== 'trace'),
  'compare_inputs', 'vars', 'cache', 'concurrency', 'sequential', 'max_retries', 'declared',
])
/** The fields of the other parts. */
const OWN_PART = new Set(['model', 'provider', 'judges', 'panel', 'default_model', 'default_provider', 'criteria', 'rubric', 'grades', 'weights', 'metric_weights', 'pass_threshold', 'threshold'])

/** The fingerprint of a resolved evaluator config; `models`: every model it calls (evaluatorModels), none for code alone. */
export function judgeFingerprint(config: Record<string, unknown>, models: readonly string[]): JudgeFingerprint {
  const criteria = Array.isArray(config.criteria)
    ? (config.criteria as Array<{ name?: unknown, description?: unknown }>).map(c => ({ name: c.name, description: c.description ?? null }))
    : null
  const prompt: Record<string, unknown> = { judge_prompts: JUDGE_PROMPTS_VERSION }
  for (const [key, value] of Object.entries(config)) if (!NOT_THE_JUDGE.has(key) && !OWN_PART.has(key)) prompt[key] = value
  const values: Record<FingerprintPart, unknown> = {
    models: { models, panel: (config.panel as { aggregate?: unknown } | undefined)?.aggregate ?? null },
    prompt,
    criteria,
    rubric: config.grades ?? (config.rubric as { grades?: unknown } | undefined)?.grades ?? null,
    weights: { weights: config.weights ?? null, metric_weights: config.metric_weights ?? null },
    threshold: { pass_threshold: config.pass_threshold ?? null, threshold: config.threshold ?? null },
  }
  const parts = Object.fromEntries(FINGERPRINT_PARTS.map(part => [part, hash(canonical(values[part])).slice(0, 12)])) as Record<FingerprintPart, string>
  return { fingerprint: hash(FINGERPRINT_PARTS.map(p => parts[p]).join(':')).slice(0, 16), parts }
}

/** The parts in which two fingerprints differ, in order. */
export function changedParts(before: Record<FingerprintPart, string>, now: Record<FingerprintPart, string>): FingerprintPart[] {
  return FINGERPRINT_PARTS.filter(part => before[part] !== now[part])
}

const PART_WORDS: Record<FingerprintPart, string> = {
  models: 'the judge models', prompt: 'the prompt or settings', criteria: 'the criteria', rubric: 'the rubric', weights: 'the weights', threshold: 'the threshold',
}

/** What changed of a judge, in words ("the rubric and the threshold"; "the judge" when the parts are not known or none differ). */
export function changedWords(changed: readonly FingerprintPart[]): string {
  return changed.length ? changed.map(p => PART_WORDS[p]).join(' and ') : 'the judge'
}

/** Hashes of recent texts: every run of one step hashes the same parts again. Small texts only, a bounded number. */
const hashes = new Map<string, string>()
const HASHES_KEPT = 512
const HASHED_TEXT_MAX = 8_192

/** Node's own SHA-256 where there is one (several times faster than the portable one the browser uses). */
interface NodeCrypto { createHash: (algorithm: 'sha256') => { update: (text: string) => { digest: (encoding: 'hex') => string } } }
const nodeCrypto = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined
export const sha256Hex = nodeCrypto
  ? (text: string) => nodeCrypto.createHash('sha256').update(text).digest('hex')
  : (text: string) => bytesToHex(sha256(utf8ToBytes(text)))

const hash = (text: string) => {
  let hex = hashes.get(text)
  if (hex !== undefined) return hex
  hex = sha256Hex(text)
  if (text.length <= HASHED_TEXT_MAX) {
    if (hashes.size >= HASHES_KEPT) hashes.delete(hashes.keys().next().value!)
    hashes.set(text, hex)
  }
  return hex
}

/** JSON with every object's keys sorted and undefined values left out: the same config gives the same text. */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return `[${value.map(v => (v === undefined ? 'null' : canonical(v))).join(',')}]`
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`
}
