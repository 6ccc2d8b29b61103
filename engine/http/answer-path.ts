/**
 * The `http` step's `answer`: a path into the response's JSON (`choices[0].message.content`,
 * `output.text`, `data.items[2]`, `data["a.b"]`, an optional leading `$`), read with the grammar of
 * references (`{{steps.x.output.…}}`), own keys only. Browser-safe: the editor may check a path.
 */
import { JudgeflowError } from '../errors'
import { type PathSegment, parseFieldPath } from '../executor/references'
import { formatPath } from '../graph/path'

const KEYS_SHOWN = 20

/** The path's keys and indexes ([] for the whole body: an empty path or `$`); INVALID_CONFIG when it is not a path. */
export function parseAnswerPath(path: string): PathSegment[] {
  const text = path.trim().replace(/^\$(?=$|[.[])\.?/, '')
  if (!text) return []
  return parseFieldPath(text, why => new JudgeflowError('INVALID_CONFIG', `The answer path "${path}" is not a path: ${why}. Write keys and indexes such as choices[0].message.content.`, {
    details: { path },
  }))
}

/**
 * The value at `path` in `json`; the whole value for an empty path. A path that leads nowhere is
 * ANSWER_NOT_FOUND naming the path, the first part that failed and what is there instead.
 */
export function extractAnswer(json: unknown, path: string | undefined): unknown {
  const segments = parseAnswerPath(path ?? '')
  let current = json
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!
    const why = missing(current, segment)
    if (why) {
      const at = formatPath(segments.slice(0, i + 1))
      throw new JudgeflowError('ANSWER_NOT_FOUND', `The answer path "${path}" finds nothing at "${at}": ${why}.`, {
        details: { path, failed_at: at, ...(isRecord(current) ? { keys: Object.keys(current).slice(0, KEYS_SHOWN) } : {}) },
      })
    }
    current = (current as Record<PathSegment, unknown>)[segment]
  }
  return current
}

/** Why `segment` cannot be read from `value`, or undefined when it can. */
function missing(value: unknown, segment: PathSegment): string | undefined {
  if (Array.isArray(value)) {
    const items = `${value.length} item${value.length === 1 ? '' : 's'}`
    if (typeof segment !== 'number') return `there is an array of ${items}, not an object with the key "${segment}"`
    return segment < value.length ? undefined : `the array there has ${items}, no [${segment}]`
  }
  if (!isRecord(value)) return `there is ${describe(value)}, not ${typeof segment === 'number' ? 'an array' : 'an object'}`
  if (Object.hasOwn(value, segment)) return undefined
  const keys = Object.keys(value)
  if (!keys.length) return `the object there is empty, no "${segment}"`
  const shown = keys.slice(0, KEYS_SHOWN).map(key => JSON.stringify(key)).join(', ')
  return `there is no key "${segment}"; the keys there are ${shown}${keys.length > KEYS_SHOWN ? `, … (${keys.length} in all)` : ''}`
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (value === undefined) return 'nothing'
  if (typeof value === 'string') return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`
  return `a ${typeof value} (${String(value)})`
}
