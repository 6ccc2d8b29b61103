import { JudgeflowError } from '../../errors'
import { openHttpAccess, readEnvValue } from '../../http/access'
import { defineStep } from '../types'
import { findModuleFile } from './module-file'
import { codeSpec, type CodeStepConfig } from './spec'
import { promptfooCall, promptfooOutput } from './promptfoo-provider'

export { codeSpec, type CodeStepConfig } from './spec'

/** What a failed connection says in Node or Python: the sandbox had no network to give. */
const NETWORK_FAILURE = /fetch failed|ECONNREFUSED|ENETUNREACH|EHOSTUNREACH|EAI_AGAIN|ENOTFOUND|getaddrinfo|Connection refused|Network is unreachable|name resolution|Name or service not known|Failed to establish a new connection|URLError/i

/**
 * The code step: calls the function of a module or Python file in the config folder, in the
 * sandbox, with `input` (the config's, references rendered, or the run input) and
 * `context` (`{ node, attempt, input }`: the run input again). It sees only the variables its
 * `env` lists (read by the http step's rule) and the network only with `network: true`.
 * Its output is what the function returned: a string as `{ text }`, an object as it is.
 */
export const codeStep = defineStep({
  ...codeSpec,
  async run({ node, config, attempt, input, settings, evaluation, signal }) {
    try {
      const scripts = evaluation.scripts
      if (!scripts) {
        throw new JudgeflowError('INVALID_CONFIG', 'a code step runs code, which this server does not allow: set JUDGEFLOW_ALLOW_CODE=1 where the server runs, or run the workflow with the judgeflow CLI (from the library, give runWorkflow `evaluation.scripts`: a createScriptRunner({ … }))')
      }
      await scripts.ready('code steps')
      const field = config.module !== undefined ? 'module' : 'python'
      const found = await findModuleFile(config[field]!, evaluation.configDir, node.id, field)
      const access = evaluation.http ?? openHttpAccess()
      const env = Object.fromEntries((config.env ?? []).map(name => [name, readEnvValue(access, name, settings.env, 'env')]))
      const language = field === 'module' ? 'javascript' : 'python'
      const call = config.promptfoo
        ? promptfooCall(config.promptfoo, language, input)
        : { args: { input: config.input === undefined ? input : config.input, context: { node: node.id, attempt, input } } }
      const returned = await scripts.runModule({
        language, ...found, env, network: config.network, timeoutMs: config.timeout_ms, ...call,
      }, signal).catch((error: unknown) => { throw withNetworkHint(error, config) })
      return { output: config.promptfoo ? promptfooOutput(returned, config.promptfoo.call, found.label) : outputOf(returned, found.label) }
    }
    catch (error) {
      if (!(error instanceof JudgeflowError) || error.message.startsWith('node "')) throw error
      throw new JudgeflowError(error.code, `node "${node.id}": ${error.message}`, { category: error.category, details: error.details, cause: error })
    }
  },
})

/** A failed connection of code that was given no network says how to grant it. */
function withNetworkHint(error: unknown, config: CodeStepConfig): unknown {
  if (config.network || !(error instanceof JudgeflowError) || !NETWORK_FAILURE.test(error.message)) return error
  return new JudgeflowError(error.code, `${error.message} — a code step has no network unless its config says network: true`, { category: error.category, details: error.details, cause: error })
}

function shown(value: unknown): string {
  if (value === undefined) return 'nothing (undefined)'
  if (value === null) return 'null'
  if (Array.isArray(value)) return `an array (of ${value.length} item${value.length === 1 ? '' : 's'})`
  const text = JSON.stringify(value)
  return `a ${typeof value} (${text.length > 60 ? `${text.slice(0, 60)}…` : text})`
}

/** The step's output: a string as `{ text }`, an object as it is; anything else is refused saying what came back. */
function outputOf(returned: unknown, label: string): Record<string, unknown> {
  if (typeof returned === 'string') return { text: returned }
  const refuse = (what: string) => new JudgeflowError('SCRIPT_FAILED', `${label} returned ${what}; a code step's function returns a string (its text) or an object (its output's fields, text a string).`, {
    details: { reason: 'returned' },
  })
  if (returned === null || typeof returned !== 'object' || Array.isArray(returned)) throw refuse(shown(returned))
  const text = (returned as Record<string, unknown>).text
  if (text !== undefined && typeof text !== 'string') throw refuse(`an object whose text is ${shown(text)}`)
  return returned as Record<string, unknown>
}
