/**
 * What `http` steps may reach and read: the address policy, and the environment variables a
 * header may put in (`{{env.NAME}}`). The server lists them (JUDGEFLOW_HTTP_ALLOW, JUDGEFLOW_HTTP_ENV);
 * from the CLI and the library the person runs their own workflow, whose `settings.env` may add names.
 */
import { JudgeflowError } from '../errors'
import type { AddressPolicy } from './address-policy'

export interface HttpAccess {
  policy: AddressPolicy
  /** Variables any workflow may read (JUDGEFLOW_HTTP_ENV). */
  env: readonly string[]
  /** Whether a workflow's `settings.env` adds names: the CLI and library yes, the server no. */
  workflowEnv: boolean
  /**
   * A variable's value, from the environment the config was loaded from (a function: the config is
   * never written out with every variable in it); absent, the run reads no variable.
   */
  read?: (name: string) => string | undefined
}

/**
 * A library caller's own process: any host, and the variables of `env` its workflow's
 * `settings.env` lists (`openHttpAccess(process.env)`); without `env`, no variable.
 */
export function openHttpAccess(env?: Readonly<Record<string, string | undefined>>): HttpAccess {
  return { policy: { guard: false }, env: [], workflowEnv: true, ...(env ? { read: (name: string) => env[name] } : {}) }
}

/**
 * The value of `name` for a header, or INVALID_CONFIG saying why it cannot be read: not listed
 * (where to list it), or not set. `field` names the header (`headers.Authorization`).
 */
export function readEnvValue(access: HttpAccess, name: string, settingsEnv: readonly string[] | undefined, field: string): string {
  const listed = access.env.includes(name) || (access.workflowEnv && !!settingsEnv?.includes(name))
  if (!listed) {
    const where = access.workflowEnv ? 'JUDGEFLOW_HTTP_ENV or the workflow\'s settings.env' : 'JUDGEFLOW_HTTP_ENV (on the server, a workflow\'s settings.env cannot add names)'
    throw new JudgeflowError('INVALID_CONFIG', `${field} reads {{env.${name}}}, which is not readable: list ${name} in ${where}.`, { details: { field, variable: name } })
  }
  if (!access.read) {
    throw new JudgeflowError('INVALID_CONFIG', `${field} reads {{env.${name}}}, but this run was given no environment: pass runWorkflow \`evaluation: { http: openHttpAccess(process.env) }\`.`, { details: { field, variable: name } })
  }
  const value = access.read(name)
  if (value === undefined || value === '') {
    throw new JudgeflowError('INVALID_CONFIG', `${field} reads {{env.${name}}}, which is not set in the environment: set ${name}.`, { details: { field, variable: name } })
  }
  return value
}
