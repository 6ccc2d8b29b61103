import { z } from 'zod'

/** `provider:model`, e.g. `openai:gpt-4o-mini`, `anthropic:claude-3-5-haiku-latest`, `local:heuristic`. */
export const modelRefSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_-]*:\S.*$/, 'must be "provider:model", e.g. "openai:gpt-4o-mini"')

export function splitModelRef(ref: string): { provider: string, model: string } {
  const colon = ref.indexOf(':')
  return { provider: ref.slice(0, colon), model: ref.slice(colon + 1) }
}

/** An environment variable's name, as `{{env.NAME}}` and a workflow's `settings.env` write it. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/
