/**
 * promptfoo's `http` provider (an `id` that is a URL, or `http`/`https` with `config.url`) as an
 * `http` step, with promptfoo 0.123.1's semantics:
 * - the method is `config.method`, else GET; a GET sends no body (promptfoo drops it: so does this, saying so);
 * - `{{prompt}}` is the rendered prompt, `{{var}}` a test's var, `{{env.NAME}}` a variable (headers only);
 * - every status is the provider's answer unless `validateStatus` says otherwise (only a list of statuses is read);
 * - 429s are retried `maxRetries` times (4 unless given), 5xx are answers;
 * - the output is `transformResponse(json, text)`: a path (`json.choices[0].message.content`) becomes the
 *   step's `answer`; another expression or an arrow function runs as JavaScript in the sandbox
 *   (`response_transform`); without one, the parsed JSON, else the text (`provider_output: json_or_text`).
 * Fields that change the request in ways judgeflow does not reproduce (auth, sessions, raw requests,
 * request transforms, TLS, multipart…) are refused by name.
 */
import { invalid } from './promptfoo-invalid'
import { MAX_JSON_DEPTH_CEILING, readJson } from '../text/safe-json'

export interface PromptfooHttp {
  /** The http step's config, its templates written as judgeflow references; `{{PROMPT}}` stands for the prompt. */
  config: Record<string, unknown>
  /** JavaScript turning the response text into the output (a transformResponse that is not a path). */
  responseTransform?: string
  /** The variables its headers read (the workflow's settings.env). */
  env: string[]
}

/** Where the rendered prompt goes, replaced per prompt by `withPrompt`. */
const PROMPT = '\u0000prompt\u0000'
const READ = new Set(['url', 'method', 'headers', 'body', 'transformResponse', 'responseParser', 'maxRetries', 'validateStatus', 'queryParams'])
const DEFAULT_MAX_RETRIES = 4
/** A transformResponse that only reads a path of the JSON body. */
const JSON_PATH = /^json((?:\.[A-Za-z_$][\w$]*|\[\d+\]|\[(["'])[^"'\]]*\2\])+)$/

export function isHttpProvider(id: string): boolean {
  return id === 'http' || id === 'https' || /^https?:\/\//.test(id)
}

export function importHttpProvider(id: string, config: Record<string, unknown> | undefined, where: string, notes: string[]): PromptfooHttp {
  const given = config ?? {}
  const other = Object.keys(given).filter(key => !READ.has(key))
  if (other.length) throw invalid(`the promptfoo config, ${where}.config: ${other.join(', ')} ${other.length === 1 ? 'is' : 'are'} not imported for an http provider (judgeflow's http step sends the url, method, headers and body as written); remove ${other.length === 1 ? 'it' : 'them'} to import the rest`)
  const env: string[] = []
  const text = (value: unknown, field: string, allowEnv = false) => {
    if (typeof value !== 'string') throw invalid(`the promptfoo config, ${where}.config.${field}: must be a text`)
    return templateOf(value, `${where}.config.${field}`, allowEnv ? env : undefined)
  }
  const rawUrl = given.url ?? (/^https?:\/\//.test(id) ? id : undefined)
  if (rawUrl === undefined) throw invalid(`the promptfoo config, ${where}: an "${id}" provider needs config.url`)
  let url = text(rawUrl, 'url')
  const query = given.queryParams
  if (query !== undefined) {
    if (!query || typeof query !== 'object' || Array.isArray(query)) throw invalid(`the promptfoo config, ${where}.config.queryParams: must be an object of texts`)
    const pairs = Object.entries(query).map(([name, value]) => `${encodeURIComponent(name)}=${text(value, `queryParams.${name}`)}`)
    url += `${url.includes('?') ? '&' : '?'}${pairs.join('&')}`
  }
  const method = given.method === undefined ? 'GET' : text(given.method, 'method').toUpperCase()
  const headers = given.headers === undefined ? undefined : headersOf(given.headers, where, (value, name) => text(value, `headers.${name}`, true))
  let body = given.body === undefined ? undefined : bodyOf(given.body, where)
  if (body !== undefined && method === 'GET') {
    notes.push(`${where}: promptfoo sends a GET without its body when config.method is not given, and so does this import; write method: POST to send the body`)
    body = undefined
  }
  const step: Record<string, unknown> = {
    url, method, retries: retriesOf(given.maxRetries, where), expect_status: statusesOf(given.validateStatus, where),
    ...(headers ? { headers } : {}),
    ...(body === undefined ? {} : { body }),
  }
  const transform = given.transformResponse ?? given.responseParser
  const field = given.transformResponse === undefined ? 'responseParser' : 'transformResponse'
  if (transform === undefined) return { config: step, env }
  if (typeof transform !== 'string' || !transform.trim()) throw invalid(`the promptfoo config, ${where}.config.${field}: must be a JavaScript expression`)
  if (transform.trim().startsWith('file://')) throw invalid(`the promptfoo config, ${where}.config.${field}: a file:// transform is not read; write the expression inline`)
  const path = JSON_PATH.exec(transform.trim())
  if (path) return { config: { ...step, answer: path[1]!.replace(/^\./, '') }, env }
  return { config: step, responseTransform: responseTransformCode(transform.trim()), env }
}

/** The step's config for one prompt: the prompt's text (already a judgeflow template) where `{{prompt}}` was. */
export function withPrompt(config: Record<string, unknown>, prompt: string): Record<string, unknown> {
  const put = (value: unknown): unknown => {
    if (typeof value === 'string') return value.split(PROMPT).join(prompt)
    if (Array.isArray(value)) return value.map(put)
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, put(v)]))
    return value
  }
  return put(config) as Record<string, unknown>
}

/** `{{ prompt }}`, `{{ var }}` and (where allowed) `{{ env.NAME }}` as judgeflow writes them; filters and tags refused. */
function templateOf(text: string, where: string, env: string[] | undefined): string {
  if (/\{%/.test(text)) throw invalid(`the promptfoo config, ${where}: Nunjucks tags ({% … %}) are not imported`)
  return text.replace(/\{\{([^{}]*)\}\}/g, (whole, inner: string) => {
    const name = inner.trim()
    if (name === 'prompt') return PROMPT
    const variable = /^env\.([A-Za-z_]\w*)$/.exec(name)
    if (variable) {
      if (!env) throw invalid(`the promptfoo config, ${where}: "${whole}" reads an environment variable, which judgeflow's http step reads only in headers`)
      if (!env.includes(variable[1]!)) env.push(variable[1]!)
      return `{{env.${variable[1]}}}`
    }
    if (!/^[A-Za-z_]\w*(?:\.\w+)*$/.test(name)) throw invalid(`the promptfoo config, ${where}: "${whole}" is not imported (filters and expressions are Nunjucks); write {{var}}, {{prompt}} or {{env.NAME}}`)
    return `{{input.${name}}}`
  })
}

function headersOf(value: unknown, where: string, text: (value: unknown, name: string) => string): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw invalid(`the promptfoo config, ${where}.config.headers: must be an object of texts`)
  // promptfoo sends header names in lower case.
  return Object.fromEntries(Object.entries(value).map(([name, v]) => [name.toLowerCase(), text(v, name)]))
}

/** A body object (its texts templated), or a text that is JSON (read as promptfoo reads it before templating), or plain text. */
function bodyOf(value: unknown, where: string): unknown {
  const visit = (item: unknown, at: string): unknown => {
    if (typeof item === 'string') return templateOf(item, at, undefined)
    if (Array.isArray(item)) return item.map((inner, i) => visit(inner, `${at}[${i}]`))
    if (item && typeof item === 'object') return Object.fromEntries(Object.entries(item).map(([k, v]) => [k, visit(v, `${at}.${k}`)]))
    return item
  }
  if (typeof value === 'string') {
    // Read within the deepest nesting any configuration honours, its keys and text checked as the config's own.
    const read = readJson(value, MAX_JSON_DEPTH_CEILING)
    if (read.ok && read.value && typeof read.value === 'object') return visit(read.value, `${where}.config.body`)
    if (!read.ok && read.details) throw invalid(`the promptfoo config, ${where}.config.body ${read.reason}`)
    if (!read.ok && /^\s*[{[]/.test(value)) throw invalid(`the promptfoo config, ${where}.config.body: a body that is JSON only once its {{vars}} are filled in is not imported; write it as an object`)
  }
  return visit(value, `${where}.config.body`)
}

function retriesOf(value: unknown, where: string): number {
  if (value === undefined) return DEFAULT_MAX_RETRIES
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 10) throw invalid(`the promptfoo config, ${where}.config.maxRetries: must be a whole number from 0 to 10`)
  return value
}

/** promptfoo takes every status as the answer unless validateStatus says otherwise; a list of statuses (`[200, 201].includes(status)`) is read. */
function statusesOf(value: unknown, where: string): number[] | 'any' {
  if (value === undefined) return 'any'
  const list = typeof value === 'string' ? /^\s*(?:\(\s*status\s*\)|status)\s*=>\s*\[([\d\s,]+)\]\.includes\(\s*status\s*\)\s*$/.exec(value) : null
  if (!list) throw invalid(`the promptfoo config, ${where}.config.validateStatus: only a list of statuses, such as (status) => [200, 201].includes(status), is imported`)
  return list[1]!.split(',').map(s => Number(s.trim())).filter(Number.isFinite)
}

/** A transformResponse as JavaScript over the response text (`output`): promptfoo's `json`, `text` and result rules. */
function responseTransformCode(expression: string): string {
  const isFunction = /^(\(.*?\)\s*=>|function\s*\(.*?\))/.test(expression)
  return [
    'const text = output',
    'let json = null',
    'try { json = JSON.parse(text) } catch {}',
    `const result = ${isFunction ? `(${expression})(json || null, text, context)` : `((json, text) => (${expression}))(json || null, text)`}`,
    'if (result !== null && typeof result === \'object\' && !Array.isArray(result) && (\'output\' in result || \'error\' in result)) {',
    '  if (result.error) throw new Error(String(result.error))',
    '  return result.output',
    '}',
    'return result',
  ].join('\n')
}
