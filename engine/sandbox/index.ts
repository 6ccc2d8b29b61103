export { runJavascript } from './javascript'
export { runPython } from './python'
export { functionBody, pythonModule } from './function-body'
export { javascriptIsolation } from './javascript'
export { DEFAULT_ALLOW_CODE, DEFAULT_CODE_MAX_PROCESSES, DEFAULT_CODE_MEMORY_MB, DEFAULT_CODE_TIMEOUT_MS, MIN_CODE_MAX_PROCESSES, MIN_CODE_MEMORY_MB } from './limits'
export type { CodeRequest, IsolationMode, ModuleRequest, SandboxLimits } from './limits'

import { JudgeflowError } from '../errors'
import type { ScriptRunner } from '../evaluator/context'
import { javascriptIsolation, runJavascript as javascript } from './javascript'
import { runPython as python } from './python'
import { runModule } from './modules'
import type { SandboxLimits } from './limits'

/**
 * Runs an assertion's code, or a code step's function, in the sandbox with these limits (JUDGEFLOW_CODE_TIMEOUT_MS,
 * JUDGEFLOW_CODE_MEMORY_MB, JUDGEFLOW_CODE_MAX_PROCESSES). Its `ready` refuses, before anything
 * runs, code that cannot be isolated where isolation is required.
 */
export function createScriptRunner(limits: SandboxLimits): ScriptRunner {
  return {
    run: (language, code, args, mode = 'assertion') => (language === 'javascript'
      ? javascript({ code, args, mode }, limits)
      : python({ code, args, mode }, limits)),
    runModule: (request, signal) => runModule(request, limits, signal),
    async ready(what = 'javascript, python and transform') {
      if (limits.isolation !== 'require') return
      const probe = await javascriptIsolation(limits.searchPath)
      if (!probe.ok) throw new JudgeflowError('INVALID_CONFIG', `${what} run code, which this server runs only in a sandbox, and ${probe.reason}`)
    },
  }
}
