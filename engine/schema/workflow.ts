import { z } from 'zod'
import { strictObject } from './unknown-keys'
import { ENV_NAME } from './common'

/** setTimeout's ceiling (about 24.8 days); a longer delay would fire at once. */
export const MAX_TIMEOUT_MS = 2_147_483_647
const timeoutSchema = z.number().int().positive().max(MAX_TIMEOUT_MS)

/** Limits that keep one workflow from exhausting the engine. */
export const MAX_NODES = 2000
export const MAX_EDGES = 10_000

/** Node ids are slugs so they can appear in references like `{{steps.<id>.text}}`. */
export const nodeIdSchema = z
  .string()
  .regex(/^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/, 'must be a slug: a letter, then letters, digits, "-" or "_" (at most 64)')

/** A step's name as people read it on its card ("Draft", "Passed?"); its id stays what references use. */
export const MAX_STEP_NAME = 200

export const positionSchema = strictObject({ x: z.number(), y: z.number() })

/** A pinned output: a string is shorthand for `{ text }`. */
export const pinnedItemSchema = z.union([z.string(), z.record(z.string(), z.unknown())])

export const workflowNodeSchema = strictObject({
  id: nodeIdSchema,
  type: z.string().min(1, 'is required'),
  name: z.string().max(MAX_STEP_NAME, `is longer than ${MAX_STEP_NAME} characters: shorten it (the id stays what references use)`).optional(),
  config: z.record(z.string(), z.unknown()).default({}),
  pinned: z.array(pinnedItemSchema).min(1, 'needs at least one output when present').optional(),
  position: positionSchema.optional(),
  timeout_ms: timeoutSchema.optional(),
})

export const workflowEdgeSchema = strictObject({
  from: nodeIdSchema,
  to: nodeIdSchema,
  when: z.string().min(1).optional(),
})

export const workflowSettingsSchema = strictObject({
  /** How many independent steps may run at once. */
  concurrency: z.number().int().min(1).max(64).optional(),
  /** Default per-step timeout. */
  timeout_ms: timeoutSchema.optional(),
  /** `false` bypasses the LLM response cache for the whole run. */
  cache: z.boolean().optional(),
  /**
   * Environment variables an http step's headers may read as `{{env.NAME}}`, from the CLI and the
   * library (the server reads only those JUDGEFLOW_HTTP_ENV lists).
   */
  env: z.array(z.string().regex(ENV_NAME, 'is not an environment variable\'s name')).max(100).optional(),
})

export const workflowSchema = strictObject({
  name: z.string().min(1, 'is required').max(200),
  description: z.string().max(5000).optional(),
  nodes: z.array(workflowNodeSchema).min(1, 'needs at least one node').max(MAX_NODES, `has more than ${MAX_NODES} nodes`),
  edges: z.array(workflowEdgeSchema).max(MAX_EDGES, `has more than ${MAX_EDGES} edges`).default([]),
  settings: workflowSettingsSchema.optional(),
})

export type WorkflowNode = z.infer<typeof workflowNodeSchema>
export type WorkflowEdge = z.infer<typeof workflowEdgeSchema>
export type WorkflowSettings = z.infer<typeof workflowSettingsSchema>
export type Workflow = z.infer<typeof workflowSchema>
export type WorkflowInput = z.input<typeof workflowSchema>

/** Options a caller may set per run. */
export const runOptionsSchema = z.object({
  cache: z.boolean().optional(),
  concurrency: z.number().int().min(1).max(64).optional(),
  timeout_ms: timeoutSchema.optional(),
})
export type RunOptions = z.infer<typeof runOptionsSchema>

export const stepStatuses = ['pending', 'running', 'succeeded', 'failed', 'skipped', 'cancelled'] as const
export type StepStatus = (typeof stepStatuses)[number]

export const runStatuses = ['queued', 'running', 'succeeded', 'failed', 'cancelled', 'interrupted'] as const
export type RunStatus = (typeof runStatuses)[number]

/** The statuses a run ends in: it changes no more once it has one. */
export const finalRunStatuses: ReadonlySet<string> = new Set<RunStatus>(['succeeded', 'failed', 'cancelled', 'interrupted'])
/** The statuses of a run some process is executing or is about to execute: every status but the final ones. */
export const unfinishedRunStatuses: readonly RunStatus[] = runStatuses.filter(status => !finalRunStatuses.has(status))

export type Verdict = 'pass' | 'fail' | null
