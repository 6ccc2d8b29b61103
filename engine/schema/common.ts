import { z } from 'zod'

/** `provider:model`, e.g. `openai:gpt-4o-mini`, `anthropic:claude-3-5-haiku-latest`, `local:heuristic`. */
export const modelRefSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_-]*:\S.*$/, 'must be "provider:model", e.g. "openai:gpt-4o-mini"')

/**
 * A text written at length (a prompt, a reason): the step's form gives it a text area. Said in the
 * config's JSON Schema as `multiline: true`, which the editor reads (app/utils/step-fields.ts).
 */
export const longText = <T extends z.ZodType>(schema: T): T => schema.meta({ multiline: true })

export function splitModelRef(ref: string): { provider: string, model: string } {
  const colon = ref.indexOf(':')
  return { provider: ref.slice(0, colon), model: ref.slice(colon + 1) }
}

export { ENV_NAME } from './env-name'
