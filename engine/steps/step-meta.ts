/**
 * What the editor's page shows of each built-in step type without loading its schemas: its label,
 * and the config fields a step with pinned outputs may leave out. Zod-free and browser-safe; each
 * type's spec.ts takes its entry from here, so the page and the schemas say the same.
 */
export interface StepMeta {
  label: string
  pinnedOptional?: readonly string[]
}

export const builtinStepMeta = {
  input: { label: 'Input' },
  llm: { label: 'LLM', pinnedOptional: ['model'] },
  http: { label: 'HTTP', pinnedOptional: ['url'] },
  code: { label: 'Code' },
  evaluator: { label: 'Evaluator' },
  condition: { label: 'Condition' },
  retry: { label: 'Retry' },
  output: { label: 'Output' },
} as const satisfies Record<string, StepMeta>

/** A built-in type's entry; undefined for a type that is not built in. */
export function stepMeta(type: string): StepMeta | undefined {
  return Object.hasOwn(builtinStepMeta, type) ? builtinStepMeta[type as keyof typeof builtinStepMeta] : undefined
}
