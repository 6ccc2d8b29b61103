/** How long a `javascript`/`python` assertion or a transform may run unless JUDGEFLOW_CODE_TIMEOUT_MS says otherwise. */
export const DEFAULT_CODE_TIMEOUT_MS = 5000

/** The memory a piece of user code may use unless JUDGEFLOW_CODE_MEMORY_MB says otherwise. */
export const DEFAULT_CODE_MEMORY_MB = 128

/** Less memory than this and the interpreters themselves cannot start (Python alone maps about 17 MB). */
export const MIN_CODE_MEMORY_MB = 32

/** Whether the HTTP server runs code assertions unless JUDGEFLOW_ALLOW_CODE says otherwise (the CLI always may). */
export const DEFAULT_ALLOW_CODE = false

export interface SandboxLimits {
  /** The child process is killed this long after it was started, whatever it is doing. */
  timeoutMs: number
  /** The JavaScript heap (`--max-old-space-size`) or Python's address space (RLIMIT_AS), in MB. */
  memoryMb: number
}

export interface PythonLimits extends SandboxLimits {
  /** The directories python3 is looked for in (the server's PATH); the child gets this PATH and nothing else. */
  searchPath: string
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
