import { BroadcastChannel } from 'node:worker_threads'

export const HELD_IMPORTS_CHANNEL = 'judgeflow-test-held-imports'

/** What the held import worker (held-import-worker.ts) and the test say to each other. */
export type HeldImportMessage = { started: string } | { release: string }

/** A promptfoo config the held import worker holds until `release(key)`; its dataset is named `key`. */
export function heldConfig(key: string): { name: string, config: string } {
  return { name: key, config: `# hold: ${key}\ndescription: ${key}\ntests:\n  - vars: { q: a }\n    assert: [{ type: contains, value: a }]\n` }
}

/**
 * The test's side of the held import worker: its entry (for an ImportReader, or where the server
 * looks for its import worker), the imports it has started reading, in order, and the release of
 * a held one. Close it after the tests.
 */
export function heldImports() {
  const channel = new BroadcastChannel(HELD_IMPORTS_CHANNEL)
  const started: string[] = []
  const listeners = new Set<() => void>()
  channel.onmessage = (message) => {
    const said = (message as { data: HeldImportMessage }).data
    if (!('started' in said)) return
    started.push(said.started)
    for (const listener of listeners) listener()
  }
  return {
    entry: new URL('./held-import-worker.ts', import.meta.url),
    started,
    /** Resolves once the worker has started reading the import of that name; fails after `timeoutMs`. */
    whenStarted(name: string, timeoutMs = 20_000): Promise<void> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          listeners.delete(check)
          reject(new Error(`the held import worker did not start "${name}" (it started: ${started.join(', ') || 'nothing'})`))
        }, timeoutMs)
        const check = () => {
          if (!started.includes(name)) return
          listeners.delete(check)
          clearTimeout(timer)
          resolve()
        }
        listeners.add(check)
        check()
      })
    },
    release(...keys: string[]): void {
      for (const key of keys) channel.postMessage({ release: key } satisfies HeldImportMessage)
    },
    close(): void {
      channel.close()
    },
  }
}
