/**
 * promptfoo's custom providers that run the user's code, as a `code` step calling them as promptfoo
 * 0.123.1 does (engine/steps/code/promptfoo-provider.ts):
 * - `file://provider.js` (.mjs, .cjs, .ts…): a class, made with the provider's options, whose `callApi` answers;
 * - `file://provider.py`, `file://provider.py:function`, `python:provider.py[:function]`: `call_api(prompt, options, context)`;
 * - `exec: <command>`: the command run with the prompt, the options and the context as arguments,
 *   its standard output the answer — imported when the command runs a script judgeflow can sandbox
 *   (`python3 script.py …`, `node script.js …`); any other program is refused.
 * Files are found in the config's folder, as promptfoo finds them.
 */
import { invalid } from './promptfoo-invalid'

export interface PromptfooScript {
  /** The code step's config without its prompt (`promptfoo.prompt`), put in per cell. */
  config: Record<string, unknown>
}

const JS_FILE = /\.(?:[cm]?[jt]s)$/i

/** Whether the id names a provider of the user's code. */
export function isScriptProvider(id: string): boolean {
  return id.startsWith('exec:') || id.startsWith('python:') || (id.startsWith('file://') && (/\.py(?::\w+)?$/i.test(id) || JS_FILE.test(id)))
}

export function importScriptProvider(id: string, options: Record<string, unknown>, where: string): PromptfooScript {
  if (id.startsWith('exec:')) return execProvider(id.slice(5).trim(), options, where)
  const path = id.startsWith('file://') ? id.slice(7) : id.slice(7 /* python: */)
  const python = /^(.*\.py)(?::(\w+))?$/i.exec(path)
  if (python) return { config: { python: relative(python[1]!, where), promptfoo: { call: 'provider', options, ...(python[2] ? { function: python[2] } : {}) } } }
  return { config: { module: relative(path, where), promptfoo: { call: 'provider', options } } }
}

function relative(path: string, where: string): string {
  if (!path || path.startsWith('/')) throw invalid(`the promptfoo config, ${where}: "${path}" must be a file beside the config (a relative path): judgeflow runs a provider's file from the config's folder`)
  return path.replace(/^\.\//, '')
}

/** The command's parts as promptfoo splits them: words, "double" or 'single' quoted. */
function parts(command: string): string[] {
  return [...command.matchAll(/[^\s"']+|"([^"]*)"|'([^']*)'/g)].map(m => m[1] ?? m[2] ?? m[0])
}

function execProvider(command: string, options: Record<string, unknown>, where: string): PromptfooScript {
  const [program, script, ...argv] = parts(command)
  const call = { call: 'exec', options, argv }
  if (program && /^python3?$/.test(program) && script && /\.py$/i.test(script)) return { config: { python: relative(script, where), promptfoo: call } }
  if (program === 'node' && script && JS_FILE.test(script)) return { config: { module: relative(script, where), promptfoo: call } }
  throw invalid(`the promptfoo config, ${where}: "exec:${command}" is not imported: judgeflow runs an exec provider's script in its sandbox when the command is python3 <script.py> … or node <script.js> …, not another program`)
}
