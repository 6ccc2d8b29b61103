import { createHash } from 'node:crypto'
import { accessConfig } from '~~/server/utils/access'

/**
 * At start, read the configuration (core/config.ts) and refuse to start on a wrong value, naming
 * the variable — a token shorter than 32 characters, a bad JUDGEFLOW_SESSION_TTL_HOURS, a limit
 * that is not a number — or to listen beyond this machine without JUDGEFLOW_TOKEN. On every page, a
 * Content-Security-Policy: scripts only from this origin (plus the hashes of the page's own inline
 * scripts), no plugins, no framing; LLM output is text in the DOM, and this is the second line.
 */
export default defineNitroPlugin((nitroApp) => {
  let problem: string | undefined
  try {
    problem = accessConfig().problem
  }
  catch (error) {
    problem = (error as Error).message
  }
  if (problem) {
    console.error(`judgeflow: refusing to start: ${problem}`)
    process.exit(1)
  }
  nitroApp.hooks.hook('render:response', (response) => {
    const body = typeof response.body === 'string' ? response.body : ''
    const hashes = [...body.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")[^>]*>([\s\S]*?)<\/script>/g)]
      .map(m => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`)
    const { 'x-powered-by': _poweredBy, ...headers } = response.headers ?? {}
    response.headers = {
      ...headers,
      'content-security-policy': [
        `default-src 'self'`, `script-src 'self' ${hashes.join(' ')}`.trim(), `style-src 'self' 'unsafe-inline'`, `img-src 'self' data:`,
        `connect-src 'self'`, `object-src 'none'`, `base-uri 'self'`, `form-action 'self'`, `frame-ancestors 'none'`,
      ].join('; '),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
    }
  })
})
