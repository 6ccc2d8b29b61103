import { z } from 'zod'
import { closestKey } from '../text/edit-distance'

/** Keys that look like a credential: a config never holds one (keys come from the environment). */
const CREDENTIAL = /api[_-]?key|secret|password|credential|^key$|^token$|access[_-]?token|auth/i

export { closestKey }

/**
 * The one wording of an unknown key, wherever it is found (a config, a node, a scorer's options,
 * a metric suite): one sentence per key naming the likely typo, or where a credential belongs.
 * The problem it becomes (engine/graph/validate.ts) puts the path before it.
 */
export function unknownKeyMessage(keys: readonly string[], known: readonly string[], where?: string): string {
  const at = where ? ` in ${where}` : ''
  const of = where ? ` of ${where}` : ''
  return keys.map((key) => {
    if (CREDENTIAL.test(key)) return `"${key}" is not a setting${of}: API keys are read only from the environment (OPENAI_API_KEY, ANTHROPIC_API_KEY), never from a config`
    const near = closestKey(key, known)
    return `unknown key "${key}"${at}: ${near ? `did you mean "${near}"?` : known.length ? `known keys are ${known.join(', ')}` : 'it takes no keys'}`
  }).join('; ')
}

/** The path of an issue, down to the unknown key when it names one: the field a problem selects. */
export function issuePath(issue: { code: string, path: PropertyKey[], keys?: readonly string[] }): PropertyKey[] {
  return issue.code === 'unrecognized_keys' && issue.keys?.length === 1 ? [...issue.path, issue.keys[0]!] : issue.path
}

/** A strict object: its unknown keys are refused by name, with the closest known key when one is near. */
export function strictObject<S extends z.ZodRawShape>(shape: S, where?: string) {
  const known = Object.keys(shape)
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code !== 'unrecognized_keys') return undefined
      // The schema that refused the key: an extended one (`.extend`) knows more keys than `shape`.
      const own = (issue.inst as { _zod?: { def?: { shape?: object } } } | undefined)?._zod?.def?.shape
      return unknownKeyMessage(issue.keys, own ? Object.keys(own) : known, where)
    },
  })
}
