/**
 * Calls a code step's function — `default`/`call` of a JavaScript or TypeScript module, `call` of
 * a Python file — in the sandbox, as an assertion's code runs there (child.ts, isolation.ts), with
 * only the variables and the network the step's config grants.
 */
import { readFile, stat } from 'node:fs/promises'
import { JudgeflowError } from '../errors'
import { argumentsJson, parameterNames } from './arguments'
import { runNode } from './javascript'
import { bundleModule } from './module-bundle'
import { MODULE_RUNNER } from './module-runner'
import { runPythonScript } from './python'
import type { ModuleRequest, SandboxLimits } from './limits'

/** A Python file larger than this is refused before it is read (its text goes to the child whole). */
export const MAX_PYTHON_FILE_BYTES = 1024 * 1024

export async function runModule(request: ModuleRequest, limits: SandboxLimits, signal?: AbortSignal): Promise<unknown> {
  parameterNames(request.args)
  const argsJson = argumentsJson(request.args)
  const callLimits = { ...limits, timeoutMs: request.timeoutMs ?? limits.timeoutMs }
  if (request.language === 'python') {
    const script = await readPythonFile(request)
    const call = request.style === 'main' ? { main: true, argv: request.argv ?? [] } : { function: request.pythonFunction ?? 'call' }
    return await runPythonScript({ script, argsJson, ...call, filename: request.label, env: request.env, network: request.network }, callLimits, signal)
  }
  const source = await bundleModule(request.file, request.root, request.label)
  return await runNode({
    language: 'JavaScript',
    command: process.execPath,
    args: [`--max-old-space-size=${limits.memoryMb}`, '--enable-source-maps', '-e', MODULE_RUNNER],
    env: {},
    input: JSON.stringify({ source, label: request.label, argsJson, env: request.env, style: request.style ?? 'function', argv: request.argv ?? [] }),
    outOfMemory: stderr => /heap out of memory|Reached heap limit/.test(stderr),
  }, callLimits, signal, request.network)
}

async function readPythonFile(request: ModuleRequest): Promise<string> {
  const size = (await stat(request.file)).size
  if (size > MAX_PYTHON_FILE_BYTES) {
    throw new JudgeflowError('SCRIPT_FAILED', `The Python file ${request.label} is larger than ${MAX_PYTHON_FILE_BYTES} bytes; a code step's file is read whole.`, { details: { language: 'Python', reason: 'load' } })
  }
  return await readFile(request.file, 'utf8')
}
