/** The code step's form: which file it calls, its variables as text and back, and its problems beside its fields. Pure, tested on its own. */
import type { Read } from './json-field'

/** What a code step calls: a JavaScript/TypeScript module (`module`) or a Python file (`python`). */
export type CodeKind = 'module' | 'python'

export const CODE_KINDS: ReadonlyArray<{ value: CodeKind, label: string }> = [
  { value: 'module', label: 'JavaScript / TypeScript' },
  { value: 'python', label: 'Python' },
]

/** The config fields the form shows beside themselves (`config` itself: "give module or python"); others are said at the top of the panel. */
export const CODE_FORM_FIELDS: ReadonlySet<string> = new Set(['config', 'module', 'python', 'input', 'timeout_ms', 'network', 'env'])

const isSet = (value: unknown) => value !== undefined && value !== null

/** The kind a step's config calls: Python only when it names a Python file and no module. */
export function codeKindOf(config: Record<string, unknown>): CodeKind {
  return isSet(config.python) && !isSet(config.module) ? 'python' : 'module'
}

const MODULE_EXTENSION = /\.(?:[cm]?[jt]s|[jt]sx)$/i
const PYTHON_EXTENSION = /\.py$/i

const stem = (name: string) => name.replace(MODULE_EXTENSION, '').replace(PYTHON_EXTENSION, '')

/**
 * The config change that makes a step call the other kind: the file name moves to the other key
 * (a step calls one function), its extension changed to the new kind's (`product.ts` ↔ `product.py`);
 * `before`, the name the new kind had before (`product.mjs`), is taken back when only its extension differs.
 */
export function switchKind(config: Record<string, unknown>, to: CodeKind, before?: string): Record<string, unknown> {
  const from: CodeKind = to === 'module' ? 'python' : 'module'
  const name = config[from] ?? config[to]
  if (typeof name !== 'string' || !name) return { [from]: undefined }
  const renamed = to === 'python' ? name.replace(MODULE_EXTENSION, '.py') : name.replace(PYTHON_EXTENSION, '.ts')
  return { [from]: undefined, [to]: before && stem(before) === stem(renamed) ? before : renamed }
}

/** The variables as their field shows them: `API_KEY, REGION`. */
export const envText = (env: unknown): string => (Array.isArray(env) ? env.join(', ') : '')

/** Variable names typed, separated by commas or spaces, each once; empty is none. The schema judges each name. */
export function readEnvNames(text: string): Read<string[] | undefined> {
  const names = [...new Set(text.split(/[\s,]+/).filter(Boolean))]
  return { ok: true, value: names.length ? names : undefined }
}

const capitalized = (sentence: string) => {
  const said = sentence.charAt(0).toUpperCase() + sentence.slice(1)
  return /[.!?)]$/.test(said) ? said : `${said}.`
}

/**
 * The problem beside the file name: the file's own (the key the form shows or the other one, set
 * by hand or by an import), else the step's "give module or python".
 */
export function fileError(errors: Readonly<Record<string, string>>, kind: CodeKind): string | undefined {
  const other = kind === 'module' ? 'python' : 'module'
  const whole = errors.config
  return errors[kind] ?? errors[other] ?? (whole ? capitalized(whole) : undefined)
}

/**
 * The problem beside the variables, a listed name said by name: "Variable 2 is not …" becomes
 * `"2FA" is not …` (the field holds them all in one line).
 */
export function envError(errors: Readonly<Record<string, string>>, names: readonly string[]): string | undefined {
  const found = Object.entries(errors).find(([path]) => path === 'env' || /^env\[\d+\]$/.test(path))
  if (!found) return undefined
  const [path, sentence] = found
  const name = names[Number(/^env\[(\d+)\]$/.exec(path)?.[1] ?? -1)]
  return name === undefined ? sentence : sentence.replace(/^Variable \d+/, `"${name}"`)
}
