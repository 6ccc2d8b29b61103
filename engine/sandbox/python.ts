import { delimiter } from 'node:path'
import { JudgeflowError } from '../errors'
import { argumentsJson, parameterNames } from './arguments'
import { runChild, type ChildSpec } from './child'
import { pythonModule } from './function-body'
import { findIsolator, findProgram, installFolder, noIsolator, notIsolated, probeIsolation, runQuietly, type Isolator } from './isolation'
import type { CodeRequest, IsolationMode, SandboxLimits } from './limits'
import { PYTHON_RUNNER } from './python-runner'

/** The first executable `python3` in the directories of `searchPath`, or undefined. */
export function findPython(searchPath: string): string | undefined {
  return findPython3s(searchPath)[0]
}

/** Every executable `python3` on `searchPath`, in its order. */
function findPython3s(searchPath: string): string[] {
  const found: string[] = []
  for (const directory of searchPath.split(delimiter)) {
    const python = directory ? findProgram('python3', directory) : undefined
    if (python !== undefined && !found.includes(python)) found.push(python)
  }
  return found
}

/** The Python a run uses: in its sandbox, or (isolation `prefer`, none available) a plain `python3`. */
type PythonLaunch = { command: string, sandbox?: { isolator: Isolator, binds: string[] } }

const launches = new Map<string, Promise<PythonLaunch>>()

/**
 * The interpreter behind a `python3` on PATH (a pyenv shim, say, is a shell script): its program
 * and its installation's folder, asked of it with no code of the user's.
 */
async function interpreterOf(python: string, searchPath: string): Promise<{ command: string, binds: string[] } | undefined> {
  const { code, stdout } = await runQuietly(python, ['-I', '-c', 'import sys; print(sys.executable); print(sys.base_prefix)'], { env: { PATH: searchPath } })
  const [command, prefix] = stdout.split('\n')
  if (code !== 0 || !command || !prefix) return undefined
  // A virtual environment's folder and the installation it was made from.
  return { command, binds: topFolders([...installFolder(command), ...installFolder(`${prefix}/bin/python3`)]) }
}

/** The folders, without those inside another of them. */
function topFolders(folders: string[]): string[] {
  return [...new Set(folders)].filter(folder => !folders.some(other => other !== folder && folder.startsWith(`${other}/`)))
}

async function findLaunch(searchPath: string, isolation: IsolationMode): Promise<PythonLaunch> {
  const pythons = findPython3s(searchPath)
  if (pythons.length === 0) {
    throw new JudgeflowError('SCRIPT_FAILED', 'python3 was not found on PATH, and python assertions need it: install Python 3 on the machine that runs them, or put its folder on PATH.', {
      details: { language: 'Python', reason: 'no-python' },
    })
  }
  let refusal = findIsolator(searchPath) ? undefined : noIsolator()
  for (const python of refusal ? [] : pythons) {
    const program = await interpreterOf(python, searchPath)
    if (!program) continue
    const probe = await probeIsolation(searchPath, program, ['-I', '-c', 'pass'])
    if (probe.ok) return { command: program.command, sandbox: { isolator: probe.isolator, binds: program.binds } }
    refusal ??= probe.reason
  }
  if (isolation === 'prefer') return { command: pythons[0]! }
  const { message, reason } = notIsolated('Python', refusal ?? `no python3 on PATH (${pythons.join(', ')}) could be started`)
  throw new JudgeflowError('SCRIPT_FAILED', message, { details: { language: 'Python', reason } })
}

/** The Python runs use with this PATH, found once (a failure is asked again next time). */
function pythonLaunch(limits: SandboxLimits): Promise<PythonLaunch> {
  const key = `${limits.isolation}\0${limits.searchPath}`
  let launch = launches.get(key)
  if (!launch) {
    launch = findLaunch(limits.searchPath, limits.isolation)
    launches.set(key, launch)
    launch.catch(() => launches.delete(key))
  }
  return launch
}

/**
 * Runs a `python` assertion as promptfoo does: the value becomes the module
 * `def main(output, context): …` (see pythonModule) and `main` is called with the `args` values
 * in order; its result comes back as JSON (None as null). `mode` changes nothing: promptfoo has
 * inline Python for assertions only (a Python transform is a file).
 */
export async function runPython(request: CodeRequest, limits: SandboxLimits, signal?: AbortSignal): Promise<unknown> {
  const params = parameterNames(request.args)
  return await runPythonScript({ script: pythonModule(request.code, params), argsJson: argumentsJson(request.args) }, limits, signal)
}

/** A Python module to run and what to call in it: `main` of the inline code, or a code step file's `call` (named as `filename`, with `env` set). */
export interface PythonScript {
  script: string
  argsJson: string
  function?: string
  /** Run the file as the program (`__main__`, with `argv`): its standard output is the value. */
  main?: boolean
  argv?: string[]
  filename?: string
  env?: Record<string, string>
  network?: boolean
}

/**
 * Runs `script` in a child `python3 -I` from `limits.searchPath` in its sandbox (isolation.ts),
 * with an address space of `limits.memoryMb` per process and at most `limits.maxProcesses`
 * processes and threads, killed with all of them after `limits.timeoutMs` or on `signal`.
 */
export async function runPythonScript(request: PythonScript, limits: SandboxLimits, signal?: AbortSignal): Promise<unknown> {
  const launch = await pythonLaunch(limits)
  // The process limit counts the sandbox's own processes only; outside one it would count every process of the user's.
  const maxProcesses = launch.sandbox ? limits.maxProcesses : 0
  const { script, argsJson, network, ...named } = request
  const more = Object.entries(named).map(([key, value]) => `,${JSON.stringify(key)}:${JSON.stringify(value)}`).join('')
  const input = `{"script":${JSON.stringify(script)},"args":${argsJson},"memoryBytes":${limits.memoryMb * 1024 * 1024},"cpuSeconds":${Math.ceil(limits.timeoutMs / 1000) + 1},"maxProcesses":${maxProcesses}${more}}`
  const spec: ChildSpec = {
    language: 'Python',
    command: launch.command,
    args: ['-I', '-c', PYTHON_RUNNER],
    env: { PATH: launch.sandbox ? '/usr/local/bin:/usr/bin:/bin' : limits.searchPath },
    input,
    outOfMemory: stderr => /\bMemoryError\b|Cannot allocate memory/.test(stderr),
    ...(launch.sandbox ? { sandbox: { ...launch.sandbox, network } } : {}),
  }
  return await runChild(spec, limits, signal)
}
