export { runJavascript } from './javascript'
export { runPython } from './python'
export { functionBody, pythonModule } from './function-body'
export { DEFAULT_ALLOW_CODE, DEFAULT_CODE_MEMORY_MB, DEFAULT_CODE_TIMEOUT_MS, MIN_CODE_MEMORY_MB } from './limits'
export type { CodeRequest, PythonLimits, SandboxLimits } from './limits'

import type { ScriptRunner } from '../evaluator/context'
import { runJavascript as javascript } from './javascript'
import { runPython as python } from './python'
import type { PythonLimits } from './limits'

/** Runs an assertion's code in the sandbox with these limits (JUDGEFLOW_CODE_TIMEOUT_MS, JUDGEFLOW_CODE_MEMORY_MB). */
export function createScriptRunner(limits: PythonLimits): ScriptRunner {
  return {
    run: (language, code, args, mode = 'assertion') => (language === 'javascript'
      ? javascript({ code, args, mode }, limits)
      : python({ code, args, mode }, limits)),
  }
}
