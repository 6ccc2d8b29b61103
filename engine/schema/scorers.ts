import { z } from 'zod'
import { strictObject, unknownKeyMessage } from './unknown-keys'

/** The structured-edit data the edit scorers compare: operations on a document's blocks. */
export const operationSchema = z.object({
  type: z.enum(['insert', 'update', 'delete', 'replace']),
  targetBlockId: z.string().optional(),
  targetIndex: z.number().int().min(0).optional(),
  position: z.enum(['before', 'after']).optional(),
  content: z.string().optional(),
}).passthrough()
export type Operation = z.infer<typeof operationSchema>

export const blockSchema = z.object({
  id: z.string(),
  content: z.string().default(''),
  page: z.string().optional(),
}).passthrough()
export type Block = z.infer<typeof blockSchema>

/**
 * An expected pattern: `{ page?, pattern, ignore_case? }`, or a plain string (`"要約|まとめ|サマリー"`),
 * which is that pattern looked for on every page.
 */
export const contentPatternSchema = z.preprocess(value => (typeof value === 'string' ? { pattern: value } : value), z.object({
  page: z.string().optional(),
  pattern: z.string().min(1, 'is empty'),
  ignore_case: z.boolean().optional(),
}))
export type ContentPattern = z.output<typeof contentPatternSchema>

export const editOutputSchema = z.object({
  operations: z.array(operationSchema).default([]),
  blocks: z.array(blockSchema).optional(),
  durationMs: z.number().min(0).optional(),
}).passthrough()
export type EditOutput = z.infer<typeof editOutputSchema>

export const expectedEditSchema = z.object({
  operations: z.array(operationSchema).default([]),
  patterns: z.array(contentPatternSchema).default([]),
}).passthrough()
export type ExpectedEdit = z.infer<typeof expectedEditSchema>

export const originalSchema = z.object({ blocks: z.array(blockSchema).default([]) }).passthrough()
export type Original = z.infer<typeof originalSchema>

export const scorerPresets = ['standard', 'strict', 'operation-focused'] as const

/**
 * The options each built-in scorer reads (engine/scorers/builtin/), so a misspelt one is refused
 * rather than ignored. A custom scorer's options are its own and pass as they are.
 */
export const SCORER_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  'anti-hallucination': [],
  'contains': ['values', 'value', 'trim', 'ignore_case'],
  'content-quality': ['patterns'],
  'exact-match': ['value', 'trim', 'ignore_case'],
  'json-diff': [],
  'json-schema': ['schema'],
  'json-valid': [],
  'levenshtein': ['value', 'max_length', 'trim', 'ignore_case'],
  'numeric-diff': ['value', 'tolerance'],
  'operation-accuracy': [],
  'operation-result': [],
  'regex': ['pattern', 'ignore_case'],
  'response-time': ['max_acceptable_ms'],
  'target-block-precision': [],
}

export const scorerConfigSchema = strictObject({
  type: z.string().min(1, 'is required'),
  /** Relative: the overall score is Σ score·weight / Σ weight. */
  weight: z.number().min(0, 'must not be negative').default(1),
  /** Defaults to the scorer's own threshold. */
  threshold: z.number().min(0, 'must be at least 0').max(1, 'must be at most 1').optional(),
  options: z.record(z.string(), z.unknown()).default({}),
}).superRefine((scorer, ctx) => {
  const known = Object.hasOwn(SCORER_OPTIONS, scorer.type) ? SCORER_OPTIONS[scorer.type]! : undefined
  const unknown = known ? Object.keys(scorer.options).filter(key => !known.includes(key)) : []
  if (known && unknown.length) {
    ctx.addIssue({ code: 'unrecognized_keys', keys: unknown, path: ['options'], message: unknownKeyMessage(unknown, known, `the options of scorer "${scorer.type}"`) })
  }
})
export type ScorerConfig = z.infer<typeof scorerConfigSchema>

export interface ScorerResult {
  type: string
  score: number
  threshold: number
  weight: number
  passed: boolean
  details: Record<string, unknown>
}
