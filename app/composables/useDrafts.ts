/**
 * Text being typed into a field stays a draft until the field is committed (change): a re-render
 * in between (new validation problems, another field's update) shows the draft, never the stored
 * value over the user's typing.
 */
export function useDrafts() {
  const drafts = reactive<Record<string, string>>({})
  return {
    /** The field's text: its draft while one is open, else the stored value. */
    shown: (key: string, stored: unknown) => drafts[key] ?? (stored === undefined || stored === null ? '' : String(stored)),
    typed: (key: string) => (event: Event) => {
      drafts[key] = (event.target as HTMLInputElement).value
    },
    committed: (key: string, commit: (value: string) => void) => (event: Event) => {
      const value = (event.target as HTMLInputElement).value
      delete drafts[key]
      commit(value)
    },
  }
}
