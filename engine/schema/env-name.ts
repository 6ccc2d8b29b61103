/**
 * An environment variable's name, as `{{env.NAME}}` and a workflow's `settings.env` write it.
 * Free of zod: the editor's reference checks (engine/executor/references.ts) read it on the page.
 */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/
