import { JudgeflowError } from '../errors'
import { importFolderModules } from '../modules/load-folder'
import { toDefinition, type CustomScorer } from './custom'
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
    for (const definition of definitions) this.add(definition)
  }

  /**
   * Registers a scorer written to the custom-scorer interface (custom.ts): a plain object or a
   * class instance, its methods possibly on the prototype, called on the scorer itself (so `this`
   * is the instance).
   * `fallbackType` names a scorer that has no `type` of its own (a custom module: its file name);
   * `source` (the module's path) is named in errors.
   */
  register(scorer: CustomScorer, fallbackType?: string, source?: string): string {
    return this.add(toDefinition(scorer, fallbackType, source))
  }

  private add(definition: ScorerDefinition): string {
    if (this.byType.has(definition.type)) throw new JudgeflowError('INVALID_CONFIG', `The scorer "${definition.type}" is registered twice: give one of them another type.`)
    this.byType.set(definition.type, definition)
    return definition.type
  }

  get(type: string): ScorerDefinition | undefined {
    return this.byType.get(type)
  }

  types(): string[] {
    return [...this.byType.keys()]
  }
}

/** The built-in scorers alone, for callers that name no registry; an app loads custom scorers into its own. */
export const defaultScorerRegistry = new ScorerRegistry()

/**
 * Loads every module of a folder as a custom scorer, like custom metrics: its default export (or
 * `scorer`), an object or a class instance. A scorer without a `type` takes the file's name.
 */
export async function loadScorersFolder(folder: string, registry: ScorerRegistry): Promise<string[]> {
  const loaded: string[] = []
  for (const { path, name, exported } of await importFolderModules(folder, 'scorer')) {
    if (!exported) throw new JudgeflowError('INVALID_CONFIG', `${path} exports no scorer: export default an object or a class instance with score(actual, expected) and getDetails(actual, expected).`)
    if (typeof exported === 'function') throw new JudgeflowError('INVALID_CONFIG', `${path} exports a class or a function, not a scorer: export an instance (export default new MyScorer(...)).`)
    loaded.push(registry.register(exported as CustomScorer, name, path))
  }
  return loaded
}
