/** A reasoning trace: an agent's steps toward one task, with the outcome it reached. */
import { z } from 'zod'
import { JudgeflowError } from '../errors'

export const stepTypes = ['thought', 'tool_call', 'observation', 'error_recovery'] as const
export type StepType = typeof stepTypes[number]

/** zod's own wording names types ("expected array, received undefined"); ours names what to do. */
const expecting = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : `must be ${what}`),
})

const toolSchema = z.looseObject({
  name: z.string(expecting('a string')).min(1, 'must not be empty'),
}, expecting('an object with a name'))

export const traceStepSchema = z.object({
  step_id: z.number(expecting('a number')).optional(),
  type: z.enum(stepTypes, expecting(`one of ${stepTypes.join(', ')}`)),
  content: z.string(expecting('a string')).optional(),
  tool: toolSchema.optional(),
  input: z.unknown().optional(),
  output: z.unknown().optional(),
}, expecting('an object'))
export type TraceStep = z.infer<typeof traceStepSchema>

const metadataSchema = z.looseObject({
  task_domain: z.string(expecting('a string')).optional().default('default'),
  success: z.boolean(expecting('true or false')),
  created_at: z.string(expecting('a string')).optional(),
  quality_score: z.number(expecting('a number')).optional(),
  visibility: z.string(expecting('a string')).optional(),
  privacy_level: z.string(expecting('a string')).optional(),
}, expecting('an object'))

const between01 = 'must be between 0 and 1'

export const reasoningTraceSchema = z.object({
  '@context': z.string(expecting('a string')).optional(),
  '@type': z.string(expecting('a string')).optional(),
  'id': z.string(expecting('a string')).optional(),
  'metadata': metadataSchema,
  'task': z.object({ objective: z.string(expecting('a string')) }, expecting('an object with an objective')),
  'steps': z.array(traceStepSchema, expecting('a list of steps')).min(1, 'needs at least one step'),
  'outcome': z.object({
    confidence: z.number(expecting('a number')).min(0, between01).max(1, between01),
    result_summary: z.string(expecting('a string')).optional(),
  }, expecting('an object with a confidence')),
}, expecting('an object'))
export type ReasoningTrace = z.infer<typeof reasoningTraceSchema>

/** `steps[2].tool.name`, the way the rest of the engine names fields. */
function formatPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out ? `.${String(key)}` : String(key)
  return out
}

/** Validates a trace, reporting every problem at once, each with its field. */
export function parseTrace(raw: unknown): ReasoningTrace {
  const parsed = reasoningTraceSchema.safeParse(raw)
  if (parsed.success) return parsed.data
  const problems = parsed.error.issues.map(issue => `${formatPath(issue.path) || '(trace)'}: ${issue.message}`)
  throw new JudgeflowError('INVALID_INPUT', `Invalid trace: ${problems.join('; ')}`)
}
