import { z } from 'zod'

/** `provider:model`, e.g. `openai:gpt-4o-mini`, `anthropic:claude-3-5-haiku-latest`, `local:heuristic`. */
export const modelRefSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_-]*:\S.*$/, 'must be "provider:model", e.g. "openai:gpt-4o-mini"')

export function splitModelRef(ref: string): { provider: string, model: string } {
  const colon = ref.indexOf(':')
  return { provider: ref.slice(0, colon), model: ref.slice(colon + 1) }
}

export { ENV_NAME } from './env-name'
