// `node --import ./tests/support/module-log.mjs …`: every module the process loads, its URL appended
// as a line to the file JUDGEFLOW_MODULE_LOG names (a test reads what a command loaded).
import { register } from 'node:module'

register(new URL('./module-log-hooks.mjs', import.meta.url), { data: { file: process.env.JUDGEFLOW_MODULE_LOG } })
