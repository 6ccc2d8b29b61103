/**
 * `text` ended as a sentence: a full stop added unless it ends in one already, or in a question or
 * exclamation mark (a message ending "did you mean `passed`?" takes no full stop after it).
 * Browser-safe: every message that is composed from another one ends through this.
 */
export function asSentence(text: string): string {
  return /[.?!]$/.test(text) ? text : `${text}.`
}
