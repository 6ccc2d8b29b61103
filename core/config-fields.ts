import type { z } from 'zod'
import { JudgeflowError } from '../engine/errors'

export type Env = Record<string, string | undefined>

export interface ReadOptions {
  /** What counts as unset: an empty value (`empty`), or also one of spaces only (`trim`, the default). */
  blank?: 'empty' | 'trim'
}

/**
 * Reads one variable of `env` through a zod schema: unset (or blank) gives `fallback`; a value the
 * schema refuses throws INVALID_CONFIG with `message`, where `{raw}` stands for the value given.
 */
export function variable(env: Env) {
  function read<T>(name: string, schema: z.ZodType<T, string>, fallback: T, message: string, options?: ReadOptions): T
  function read<T>(name: string, schema: z.ZodType<T, string>, fallback: undefined, message: string, options?: ReadOptions): T | undefined
  function read<T>(name: string, schema: z.ZodType<T, string>, fallback: T | undefined, message: string, options: ReadOptions = {}): T | undefined {
    const raw = env[name]
    if (raw === undefined || (options.blank === 'empty' ? raw === '' : raw.trim() === '')) return fallback
    const parsed = schema.safeParse(raw)
    if (parsed.success) return parsed.data
    throw new JudgeflowError('INVALID_CONFIG', message.replace('{raw}', raw), { details: { variable: name } })
  }
  return read
}
