/**
 * The directives that decide the fake LLM's answers in the promptfoo parity suite. A directive is
 * written in a config (an assertion's value, a var, a prompt) and travels inside whatever prompt a
 * grader builds, so promptfoo's graders and judgeflow's get the same answer for the same directive
 * whatever their own wording. The grammar and each answer are documented in README.md next to this file.
 */

/** Kinds that decide what the reply is; a request may carry at most one of these (repeats of it are fine). */
export const REPLY_KINDS = ['grade', 'factuality', 'closedqa', 'geval', 'select', 'recall', 'relevant', 'faithful', 'question', 'reply'] as const
/** Kinds that only change how the reply is sent; they may accompany anything. */
export const CONTROL_KINDS = ['delay', 'usage', 'status'] as const

export type ReplyKind = typeof REPLY_KINDS[number]
export type ControlKind = typeof CONTROL_KINDS[number]

export interface Directive {
  kind: ReplyKind | ControlKind
  /** Arguments in the order written; a key may repeat (`quote=`). */
  args: Array<[string, string]>
  /** The directive as the fake writes it back, e.g. `[faithful yes=2 no=1]`. */
  canonical: string
}

/** Generation prompts wrap the text the model must answer with between these markers. */
export const ECHO_OPEN = 'ECHO>>'
export const ECHO_CLOSE = '<<ECHO'

const KINDS = [...REPLY_KINDS, ...CONTROL_KINDS]
const ARG = String.raw`[a-z]+=(?:"(?:[^"\\]|\\.)*"|[^\s\]"]+)`
const DIRECTIVE = new RegExp(String.raw`\[(${KINDS.join('|')})((?:\s+${ARG})*)\s*\]`, 'g')
const ARG_ONE = /([a-z]+)=(?:"((?:[^"\\]|\\.)*)"|([^\s\]"]+))/g
const ECHO_BLOCK = /ECHO>>([\s\S]*?)(?:<<ECHO|$)/g

function unescape(quoted: string): string {
  return quoted.replace(/\\(.)/g, (_, char: string) => char === 'n' ? '\n' : char)
}

function quote(value: string): string {
  return /^[^\s\]"\\]+$/.test(value) ? value : `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`
}

export function canonical(kind: string, args: Array<[string, string]>): string {
  return `[${[kind, ...args.map(([key, value]) => `${key}=${quote(value)}`)].join(' ')}]`
}

/** Every directive in the text, echo blocks excepted (what the model is asked to repeat is not an order to the fake). */
export function findDirectives(text: string): Directive[] {
  const outside = text.replace(ECHO_BLOCK, ' ')
  return [...outside.matchAll(DIRECTIVE)].map((match) => {
    const args = [...match[2]!.matchAll(ARG_ONE)].map(([, key, quoted, bare]) => [key!, quoted !== undefined ? unescape(quoted) : bare!] as [string, string])
    return { kind: match[1] as Directive['kind'], args, canonical: canonical(match[1]!, args) }
  })
}

/** The text of the last echo block, or undefined when the text has none. */
export function lastEcho(text: string): string | undefined {
  const blocks = [...text.matchAll(ECHO_BLOCK)]
  return blocks.length ? blocks.at(-1)![1] : undefined
}

export function arg(directive: Directive, key: string): string | undefined {
  return directive.args.find(([name]) => name === key)?.[1]
}

export function args(directive: Directive, key: string): string[] {
  return directive.args.filter(([name]) => name === key).map(([, value]) => value)
}

export function isReplyKind(kind: string): kind is ReplyKind {
  return (REPLY_KINDS as readonly string[]).includes(kind)
}
