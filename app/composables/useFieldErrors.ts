import type { InjectionKey } from 'vue'

const KEY: InjectionKey<() => Record<string, string>> = Symbol('field-errors')

/**
 * A form's problems by field path (`criteria[0].name`), handed once to every part of the form: the
 * evaluator form provides them, its sections (criteria, metrics, scorers, rubric) read them.
 */
export function provideFieldErrors(errors: () => Record<string, string>) {
  provide(KEY, errors)
}

/** The problem of a field of the form, by its path; `undefined` when it has none. */
export function useFieldErrors(): (path: string) => string | undefined {
  const errors = inject(KEY, (): Record<string, string> => ({}))
  return path => errors()[path]
}
