import { readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ScorerDefinition } from './types'
import { antiHallucination } from './builtin/anti-hallucination'
import { contentQuality } from './builtin/content-quality'
import { contains } from './builtin/contains'
import { exactMatch } from './builtin/exact-match'
import { jsonDiff } from './builtin/json-diff'
import { jsonSchema } from './builtin/json-schema'
import { jsonValid } from './builtin/json-valid'
import { levenshtein } from './builtin/levenshtein'
import { numericDiff } from './builtin/numeric-diff'
import { operationAccuracy } from './builtin/operation-accuracy'
import { operationResult } from './builtin/operation-result'
import { regex } from './builtin/regex'
import { responseTime } from './builtin/response-time'
import { targetBlockPrecision } from './builtin/target-block-precision'

/** Every built-in scorer. Adding one: its module, plus one line here. */
export const builtinScorers: readonly ScorerDefinition[] = [
  operationAccuracy,
  targetBlockPrecision,
  contentQuality,
  operationResult,
  antiHallucination,
  responseTime,
  exactMatch,
  contains,
  regex,
  jsonValid,
  jsonSchema,
  jsonDiff,
  levenshtein,
  numericDiff,
]

export class ScorerRegistry {
  private readonly byType = new Map<string, ScorerDefinition>()

  constructor(definitions: readonly ScorerDefinition[] = builtinScorers) {
    for (const definition of definitions) this.register(definition)
  }

  /** Custom scorers may leave out label, description, defaultThreshold (0.5) and details. */
  register(definition: Partial<ScorerDefinition> & Pick<ScorerDefinition, 'type' | 'score'>): void {
    if (!definition?.type || typeof definition.score !== 'function') throw new Error('a scorer needs a type and a score(actual, expected) function')
    if (this.byType.has(definition.type)) throw new Error(`scorer "${definition.type}" is registered twice`)
    this.byType.set(definition.type, {
      ...definition,
      label: definition.label ?? definition.type,
      description: definition.description ?? '',
      defaultThreshold: definition.defaultThreshold ?? 0.5,
      details: definition.details ?? (() => ({})),
    })
  }

  get(type: string): ScorerDefinition | undefined {
    return this.byType.get(type)
  }

  types(): string[] {
    return [...this.byType.keys()]
  }
}

/** Built-ins plus the custom scorers loaded at start. */
export const defaultScorerRegistry = new ScorerRegistry()

/** Loads every module of a folder as a custom scorer (default export or `scorer`), like custom metrics. */
export async function loadScorersFolder(folder: string, registry: ScorerRegistry = defaultScorerRegistry): Promise<string[]> {
  let files: string[]
  try {
    files = readdirSync(folder).filter(name => /\.(mjs|js|ts|mts)$/.test(name) && !name.endsWith('.d.ts')).sort()
  }
  catch {
    return []
  }
  const loaded: string[] = []
  for (const file of files) {
    const module = await import(pathToFileURL(resolve(join(folder, file))).href) as { default?: ScorerDefinition, scorer?: ScorerDefinition }
    const definition = module.default ?? module.scorer
    if (!definition) throw new Error(`${join(folder, file)} exports no scorer (export default { type, description, score, details })`)
    registry.register(definition)
    loaded.push(definition.type)
  }
  return loaded
}
