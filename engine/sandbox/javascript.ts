import { JudgeflowError } from '../errors'
import { argumentsJson, parameterNames } from './arguments'
import { runChild, type ChildSpec } from './child'
import { functionBody } from './function-body'
import { installFolder, notIsolated, probeIsolation, type IsolationProbe } from './isolation'
import { JAVASCRIPT_RUNNER } from './javascript-runner'
import type { CodeRequest, SandboxLimits } from './limits'

/** Node in the sandbox: this process's own binary, with its installation's folder when outside /usr. */
const node = () => ({ command: process.execPath, binds: installFolder(process.execPath) })

/** Whether JavaScript runs in a sandbox here (asked once per PATH). */
export function javascriptIsolation(searchPath: string): Promise<IsolationProbe> {
  return probeIsolation(searchPath, node(), ['-e', '0'])
}

/**
 * Runs a `javascript` assertion or a `transform` as promptfoo does — the function is called with
 * the `args` values in order (`output, context`) and may return a Promise — in a child Node
 * process in its sandbox (isolation.ts) with a heap of `limits.memoryMb`, killed after
 * `limits.timeoutMs` or on `signal`.
 *
 * The result comes back as the code returned it: a boolean, number (also NaN and ±Infinity,
 * which promptfoo grades as scores), string, array or object; `undefined` comes back as
 * `undefined` and `null` as `null`: promptfoo's messages tell them apart, and a transform that
 * need not return a value hands either on as it is.
 * A function, symbol, bigint, non-finite number or cycle inside the result is refused.
 */
export async function runJavascript(request: CodeRequest, limits: SandboxLimits, signal?: AbortSignal): Promise<unknown> {
  return await runNode(javascriptChild(request, limits), limits, signal)
}

/**
 * Runs a Node child in its sandbox (with the network when `network` grants it), or — isolation
 * `prefer`, none available — as a plain child process; else refuses it, saying why.
 */
export async function runNode(spec: ChildSpec, limits: SandboxLimits, signal?: AbortSignal, network = false): Promise<unknown> {
  const probe = await javascriptIsolation(limits.searchPath)
  if (probe.ok) return await runChild({ ...spec, sandbox: { isolator: probe.isolator, binds: node().binds, network } }, limits, signal)
  if (limits.isolation === 'prefer') return await runChild(spec, limits, signal)
  const { message, reason } = notIsolated('JavaScript', probe.reason)
  throw new JudgeflowError('SCRIPT_FAILED', message, { details: { language: 'JavaScript', reason } })
}

/** The child process of a JavaScript run: this Node binary, the runner given inline, an empty environment. */
export function javascriptChild(request: CodeRequest, limits: SandboxLimits): ChildSpec {
  const params = parameterNames(request.args)
  return {
    language: 'JavaScript',
    command: process.execPath,
    args: [`--max-old-space-size=${limits.memoryMb}`, '-e', JAVASCRIPT_RUNNER],
    env: {},
    input: JSON.stringify({ body: functionBody(request.code, request.mode), params, argsJson: argumentsJson(request.args), timeoutMs: limits.timeoutMs }),
    outOfMemory: stderr => /heap out of memory|Reached heap limit/.test(stderr),
  }
}
