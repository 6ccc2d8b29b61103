import { accessSync, constants, statSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { JudgeflowError } from '../errors'
import { argumentsJson, parameterNames } from './arguments'
import { runChild } from './child'
import { pythonModule } from './function-body'
import type { CodeRequest, PythonLimits } from './limits'
import { PYTHON_RUNNER } from './python-runner'

/** The first executable `python3` in the directories of `searchPath`, or undefined. */
export function findPython(searchPath: string): string | undefined {
  for (const directory of searchPath.split(delimiter)) {
    if (!directory) continue
    const candidate = join(directory, 'python3')
    try {
      accessSync(candidate, constants.X_OK)
      if (statSync(candidate).isFile()) return candidate
    }
    catch {
      // not here: the next directory
    }
  }
  return undefined
}

/**
 * Runs a `python` assertion as promptfoo does: the value becomes the module
 * `def main(output, context): …` (see pythonModule) and `main` is called with the `args` values
 * in order; its result comes back as JSON (None as null). The child is `python3 -I` from
 * `limits.searchPath`, with that PATH as its whole environment, an address space of
 * `limits.memoryMb`, killed after `limits.timeoutMs` or on `signal`. `mode` changes nothing:
 * promptfoo has inline Python for assertions only (a Python transform is a file).
 */
export async function runPython(request: CodeRequest, limits: PythonLimits, signal?: AbortSignal): Promise<unknown> {
  const params = parameterNames(request.args)
  const python = findPython(limits.searchPath)
  if (python === undefined) {
    throw new JudgeflowError('SCRIPT_FAILED', 'python3 was not found on PATH, and python assertions need it: install Python 3 on the machine that runs them, or put its folder on PATH.', {
      details: { language: 'Python', reason: 'no-python' },
    })
  }
  const input = `{"script":${JSON.stringify(pythonModule(request.code, params))},"args":${argumentsJson(request.args)},"memoryBytes":${limits.memoryMb * 1024 * 1024},"cpuSeconds":${Math.ceil(limits.timeoutMs / 1000) + 1}}`
  return await runChild({
    language: 'Python',
    command: python,
    args: ['-I', '-c', PYTHON_RUNNER],
    env: { PATH: limits.searchPath },
    input,
    outOfMemory: stderr => /\bMemoryError\b|Cannot allocate memory/.test(stderr),
  }, limits, signal)
}
