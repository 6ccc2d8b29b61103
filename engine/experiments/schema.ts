import { z } from 'zod'

/**
 * Experiments (variant-scoring rubric): fixed test documents with answer keys, prompt variants,
 * and per-problem judgments. Browser-safe.
 */

/** ○ detected (1.0), △ partly detected (0.5), × missed (0.0). ASCII spellings are accepted. */
export const MARKS = { '○': 1, '△': 0.5, '×': 0 } as const
export type Mark = keyof typeof MARKS
const MARK_ALIASES: Record<string, Mark> = { '○': '○', 'o': '○', 'O': '○', 'detected': '○', '△': '△', 'partial': '△', '^': '△', '×': '×', 'x': '×', 'X': '×', 'missed': '×' }
export const markSchema = z.string().transform((value, ctx) => {
  const mark = Object.hasOwn(MARK_ALIASES, value.trim()) ? MARK_ALIASES[value.trim()] : undefined
  if (!mark) ctx.addIssue({ code: 'custom', message: `"${value}" is not a mark: use ○ (or o, detected), △ (or partial) or × (or x, missed)` })
  return mark ?? '×'
})

export const severities = ['critical', 'major', 'minor'] as const

export const problemSchema = z.object({
  /** Also a key of each judgment's marks, so `__proto__` (never accepted as a key) is refused. */
  id: z.string().min(1, 'is required').refine(id => id !== '__proto__', 'is a reserved name'),
  category: z.string().min(1, 'is required'),
  severity: z.enum(severities).optional(),
  /** What a finding must say to count as ○ (all of it). */
  criteria: z.string().optional(),
  description: z.string().optional(),
})
export type Problem = z.infer<typeof problemSchema>

export const testDocumentSchema = z.object({
  id: z.string().min(1, 'is required'),
  title: z.string().optional(),
  /** The document under review; optional in a judgments file, which only needs the answer key. */
  text: z.string().optional(),
  problems: z.array(problemSchema).min(1, 'needs at least one problem in its answer key'),
  /** Findings outside the key that would earn a bonus (typically 3–5 per document). */
  bonus_candidates: z.array(z.string()).optional(),
})
export type TestDocument = z.infer<typeof testDocumentSchema>

const findingSchema = z.preprocess(value => (typeof value === 'string' ? { finding: value } : value), z.object({ finding: z.string(), reason: z.string().default('') }))

export const judgmentSchema = z.object({
  variant: z.string().min(1, 'is required'),
  document: z.string().min(1, 'is required'),
  run: z.number().int().min(1),
  /** Per answer-key problem: its mark, with the judge's (or the reviewer's) reason. */
  problems: z.record(z.string(), z.preprocess(
    value => (typeof value === 'string' ? { mark: value } : value),
    z.object({ mark: markSchema, reason: z.string().default('') }),
  )),
  bonuses: z.array(findingSchema).default([]),
  penalties: z.array(findingSchema).default([]),
})
export type Judgment = z.infer<typeof judgmentSchema>

/**
 * A previous round, from history. The current best is not run again in a round: its judgments
 * from the last round that judged it are reused.
 */
export const roundSummarySchema = z.object({
  round: z.number().int().min(1),
  /** The best variant after the round, and how much the round improved on the best before it. */
  best: z.string(),
  improvement: z.number(),
  best_mean: z.number().optional(),
})
export type RoundSummary = z.infer<typeof roundSummarySchema>

export const judgmentsFileSchema = z.object({
  experiment: z.string().default('experiment'),
  current_best: z.string().min(1, 'is required: the variant the others are compared with'),
  documents: z.array(testDocumentSchema).min(1, 'needs at least one document'),
  judgments: z.array(judgmentSchema).min(1, 'needs at least one judgment'),
  history: z.array(roundSummarySchema).default([]),
})
export type JudgmentsFile = z.infer<typeof judgmentsFileSchema>

/** A prompt variant: a patch over the config of the step under test (its prompt, model, anything). */
export const variantSchema = z.object({
  id: z.string().regex(/^[\w.-]{1,40}$/, 'must be 1–40 letters, digits, "_", "-" or "."'),
  name: z.string().optional(),
  config: z.record(z.string(), z.unknown()).default({}),
})
export type Variant = z.infer<typeof variantSchema>

/** An experiment (suggested: 2 documents of 10 problems each; 2 runs per document per variant by default). */
export const experimentSchema = z.object({
  name: z.string().min(1, 'is required').max(200),
  /** What is in and out of scope for bonuses and penalties: the perspective the judge takes. */
  scope: z.string().default(''),
  documents: z.array(testDocumentSchema.extend({ text: z.string().min(1, 'is empty: the document under review is needed to run a round') })).min(1, 'needs at least one document'),
  /** The workflow whose step is varied, the step, and the input field that receives the document. */
  target: z.object({
    /** A stored workflow's id or name (the server), or … */
    workflow_id: z.string().min(1).optional(),
    /** … a workflow file, relative to the experiment file (the CLI). */
    workflow_file: z.string().min(1).optional(),
    node: z.string().min(1, 'is required'),
    input_field: z.string().default('document'),
  }).refine(t => t.workflow_id || t.workflow_file, { message: 'needs workflow_id (a stored workflow\'s id or name) or workflow_file (a workflow JSON file)' }),
  variants: z.array(variantSchema).min(1, 'needs at least one variant'),
  current_best: z.string().min(1, 'is required'),
  runs_per_document: z.number().int().min(1).max(20).default(2),
  /** The judge: `local:heuristic` (offline), `manual` (a person enters every mark) or a provider model; the default judge when left out. */
  judge_model: z.string().optional(),
}).superRefine((experiment, ctx) => {
  const ids = experiment.variants.map(v => v.id)
  if (!ids.includes(experiment.current_best)) ctx.addIssue({ code: 'custom', path: ['current_best'], message: `"${experiment.current_best}" is not one of the variants (${ids.join(', ')})` })
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i)
  if (duplicate) ctx.addIssue({ code: 'custom', path: ['variants'], message: `variant id "${duplicate}" is used twice` })
})
export type Experiment = z.infer<typeof experimentSchema>
export type ExperimentInput = z.input<typeof experimentSchema>
