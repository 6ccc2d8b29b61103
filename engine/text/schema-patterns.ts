import { patternProblem } from './safe-regex'

/** Keywords whose value is data, not a schema: a `pattern` inside one is never compiled. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples'])

export interface SchemaPattern {
  /** Where in the schema, e.g. `properties.code.pattern` or `patternProperties.^x-`. */
  path: string
  source: string
}

/**
 * The regular expressions a JSON Schema has compiled when it is: each `pattern` and each key of
 * `patternProperties`, at any depth. The json-schema scorer and the is-json / contains-json
 * assertions compile them on RE2 without flags (engine/scorers/builtin/json-schema.ts).
 */
export function schemaPatterns(schema: unknown): SchemaPattern[] {
  const found: SchemaPattern[] = []
  const seen = new Set<object>()
  const visit = (value: unknown, at: string) => {
    if (!value || typeof value !== 'object' || seen.has(value)) return
    seen.add(value)
    if (Array.isArray(value)) return value.forEach((item, i) => visit(item, `${at}[${i}]`))
    for (const [key, inner] of Object.entries(value)) {
      const path = at ? `${at}.${key}` : key
      if (DATA_KEYWORDS.has(key)) continue
      if (key === 'pattern' && typeof inner === 'string') found.push({ path, source: inner })
      if (key === 'patternProperties' && inner && typeof inner === 'object' && !Array.isArray(inner)) {
        for (const source of Object.keys(inner)) found.push({ path: `${path}.${source}`, source })
      }
      visit(inner, path)
    }
  }
  visit(schema, '')
  return found
}

/** The patterns of a JSON Schema that would not compile when it is used, each with where it is and why. */
export function schemaPatternProblems(schema: unknown): Array<{ path: string, message: string }> {
  return schemaPatterns(schema).flatMap(({ path, source }) => {
    const problem = patternProblem(source)
    return problem ? [{ path, message: problem }] : []
  })
}
