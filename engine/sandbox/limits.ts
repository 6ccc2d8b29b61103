/** How long a `javascript`/`python` assertion or a transform may run unless JUDGEFLOW_CODE_TIMEOUT_MS says otherwise. */
export const DEFAULT_CODE_TIMEOUT_MS = 5000

/** The memory a piece of user code may use unless JUDGEFLOW_CODE_MEMORY_MB says otherwise. */
export const DEFAULT_CODE_MEMORY_MB = 128

/** Less memory than this and the interpreters themselves cannot start (Python alone maps about 17 MB). */
export const MIN_CODE_MEMORY_MB = 32

/** The processes and threads a piece of user code may have at once unless JUDGEFLOW_CODE_MAX_PROCESSES says otherwise. */
export const DEFAULT_CODE_MAX_PROCESSES = 32

/** Fewer than this and Node cannot start its own threads. */
export const MIN_CODE_MAX_PROCESSES = 16

/** Whether the HTTP server runs code assertions unless JUDGEFLOW_ALLOW_CODE says otherwise (the CLI always may). */
export const DEFAULT_ALLOW_CODE = false

/**
 * Where code cannot be isolated (no bubblewrap, or the kernel refuses it namespaces): `require`
 * refuses it (the server), `prefer` runs it in a plain child process, as promptfoo does, after
 * the caller has said so (the CLI, the library: the person's own code on their own machine).
 */
export type IsolationMode = 'require' | 'prefer'

export interface SandboxLimits {
  /** The code's processes are killed this long after it was started, whatever they are doing. */
  timeoutMs: number
  /**
   * The JavaScript heap (`--max-old-space-size`) or Python's address space (RLIMIT_AS), in MB; the
   * resident memory of all the code's processes together may pass it by the runtime's own share.
   */
  memoryMb: number
  /** The processes and threads the code may have at once (RLIMIT_NPROC in its sandbox). */
  maxProcesses: number
  /** The directories python3 and bwrap are looked for in (the server's PATH). */
  searchPath: string
  isolation: IsolationMode
}

/**
 * One run of user code. `args` are its parameters in order, named by their keys (`output` and
 * `context`; a `transformVars` transform names its first one `vars`), and must be JSON.
 */
export interface CodeRequest {
  code: string
  args: Record<string, unknown>
  mode: 'assertion' | 'transform'
}

/**
 * One call of a code step's function: a JavaScript/TypeScript module or a Python file, found and
 * checked by the step (engine/steps/code/module-file.ts) to lie in `root`.
 */
export interface ModuleRequest {
  language: 'javascript' | 'python'
  /** The module's real path. */
  file: string
  /** The folder the module and the files it imports lie in. */
  root: string
  /** The module as messages name it (its path in the folder). */
  label: string
  /** The function's parameters in order, named (`input`, `context`); JSON. */
  args: Record<string, unknown>
  /** The variables the code sees in its environment, and nothing else. */
  env: Record<string, string>
  /** The machine's network; none unless granted. */
  network: boolean
  /** This call's time limit, instead of `SandboxLimits.timeoutMs`. */
  timeoutMs?: number
  /**
   * How the module is called (`function` when absent): `provider`, as promptfoo calls a provider
   * file — a JavaScript module's default export constructed with `args.options`, its
   * `callApi(prompt, context, {})` called; a Python file's `pythonFunction` called with the args;
   * `main`, as promptfoo's `exec:` runs a script — the file run as the program with `argv`, its
   * standard output the value.
   */
  style?: 'function' | 'provider' | 'main'
  /** The Python function a `function` or `provider` call calls (`call` unless given). */
  pythonFunction?: string
  /** A `main` run's arguments (after the script's name). */
  argv?: string[]
}
