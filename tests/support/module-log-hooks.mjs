// The resolve hook of module-log.mjs: logs each URL a module specifier resolved to.
import { appendFileSync } from 'node:fs'

let file

export function initialize(data) {
  file = data.file
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  if (file) appendFileSync(file, `${resolved.url}\n`)
  return resolved
}
