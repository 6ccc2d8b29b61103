import { argumentsJson, parameterNames } from './arguments'
import { runChild, type ChildSpec } from './child'
import { functionBody } from './function-body'
import { JAVASCRIPT_RUNNER } from './javascript-runner'
import type { CodeRequest, SandboxLimits } from './limits'

/**
 * Runs a `javascript` assertion or a `transform` as promptfoo does — the function is called with
 * the `args` values in order (`output, context`) and may return a Promise — in a child Node
 * process with a heap of `limits.memoryMb`, killed after `limits.timeoutMs` or on `signal`.
 *
 * The result comes back as the code returned it: a boolean, number (also NaN and ±Infinity,
 * which promptfoo grades as scores), string, array or object; `undefined` comes back as
 * `undefined` and `null` as `null`: promptfoo's messages tell them apart, and a transform that
 * need not return a value hands either on as it is.
 * A function, symbol, bigint, non-finite number or cycle inside the result is refused.
 */
export async function runJavascript(request: CodeRequest, limits: SandboxLimits, signal?: AbortSignal): Promise<unknown> {
  return await runChild(javascriptChild(request, limits), limits, signal)
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
