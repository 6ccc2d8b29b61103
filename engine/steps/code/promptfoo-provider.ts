/**
 * A code step calling a promptfoo custom provider as promptfoo 0.123.1 does (config `promptfoo`):
 * - `provider`, JavaScript: `new (default export)(options)`, then `callApi(prompt, context, {})`;
 * - `provider`, Python: `call_api(prompt, options, context)` (or the named function);
 * - `exec`: the file run as the program with its arguments, then the prompt, the options and the
 *   context as JSON; its standard output, trimmed and without ANSI escapes, is the output.
 * A provider answers `{ output }` or `{ error }`: an error fails the step with it.
 */
import { JudgeflowError } from '../../errors'
import type { ModuleRequest } from '../../sandbox/limits'
import type { CodeStepConfig } from './spec'

type Promptfoo = NonNullable<CodeStepConfig['promptfoo']>
const ANSI_ESCAPE = /\x1B(?:[@-Z\\-_]|\[[0-?]*[ -/]*[@-~])/g

/** The module request's call: its style and arguments. `vars` are the run input, as promptfoo's test vars. */
export function promptfooCall(call: Promptfoo, language: 'javascript' | 'python', vars: unknown): Pick<ModuleRequest, 'style' | 'args' | 'argv' | 'pythonFunction'> {
  const context = { vars, prompt: { raw: call.prompt, label: call.prompt } }
  if (call.call === 'exec') {
    return { style: 'main', args: {}, argv: [...call.argv ?? [], call.prompt, JSON.stringify(call.options), JSON.stringify(context)] }
  }
  if (language === 'javascript') return { style: 'provider', args: { options: call.options, prompt: call.prompt, context } }
  return { style: 'provider', pythonFunction: call.function ?? 'call_api', args: { prompt: call.prompt, options: call.options, context } }
}

/** The step's output from what the provider answered. */
export function promptfooOutput(returned: unknown, style: Promptfoo['call'], label: string): { text: string } {
  if (style === 'exec') return { text: String(returned ?? '').trim().replace(ANSI_ESCAPE, '') }
  if (returned === null || typeof returned !== 'object' || Array.isArray(returned) || !('output' in returned || 'error' in returned)) {
    throw new JudgeflowError('SCRIPT_FAILED', `${label} answered ${JSON.stringify(returned)?.slice(0, 80) ?? 'nothing'}; a promptfoo provider answers an object with output (or error).`, { details: { reason: 'returned' } })
  }
  const { output, error } = returned as { output?: unknown, error?: unknown }
  if (error) throw new JudgeflowError('SCRIPT_FAILED', `${label}: ${typeof error === 'string' ? error : JSON.stringify(error)}`, { details: { reason: 'provider_error' } })
  return { text: typeof output === 'string' ? output : JSON.stringify(output) ?? '' }
}
