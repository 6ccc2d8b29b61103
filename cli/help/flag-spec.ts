/**
 * A command's flags as `parseArgs` takes them, each with what `--help` says of it: the one list
 * the command parses, its help prints and "did you mean" searches. Plain data, so that
 * `judgeflow <command> --help` loads none of the command's code.
 */
export interface FlagSpec {
  type: 'string' | 'boolean'
  multiple?: boolean
  /** The value's placeholder in the help (`<file>`, `N`); string flags only. */
  value?: string
  /** What the flag does, in one line. */
  help: string
}

export type Flags = Readonly<Record<string, FlagSpec>>

/** What `judgeflow <command> --help` prints. */
export interface CommandHelp {
  /** One line: what the command does. */
  summary: string
  /** Its usage lines (without the flags' details). */
  usage: readonly string[]
  flags: Flags
  /** Command lines a person can copy, each with a comment saying what it does. */
  examples: ReadonlyArray<readonly [command: string, what: string]>
  /** The environment variables it reads, and what for. */
  env?: ReadonlyArray<readonly [name: string, what: string]>
  /** Exit codes, one line. */
  exit: string
}

/** `--require-judge` (run, eval, test), as JUDGEFLOW_REQUIRE_JUDGE=1. */
export const REQUIRE_JUDGE_FLAG = {
  'require-judge': { type: 'boolean', help: 'refuse (exit 2) an evaluator that names no model when no key is set, instead of grading it with local:heuristic' },
} as const satisfies Flags
