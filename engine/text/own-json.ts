/**
 * JSON the product wrote itself and reads back: its stored rows, the messages between its own
 * threads and pages, its settings in the browser's storage, its package.json. Nothing a user typed
 * reaches here unchecked (it was checked by safe-json.ts before it was stored or sent), so it is
 * read as it is. Text from a user, a file or a model goes through safe-json.ts or safe-yaml.ts.
 */
export function parseOwnJson<T = unknown>(text: string): T {
  return JSON.parse(text) as T
}

/** A deep copy of plain data the product holds (no functions, dates or cycles), through its JSON. */
export function jsonCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T
}
