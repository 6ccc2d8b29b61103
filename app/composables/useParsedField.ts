import type { Read } from '~/utils/json-field'

/**
 * A field whose text is read into a value (a JSON body, a list of statuses). What does not read
 * stays in the field as typed, with the reason, and the stored value is left as it was; what reads
 * is saved. The text is replaced only when the stored value changes from outside (undo, a paste).
 */
export function useParsedField<T>(options: {
  stored: () => unknown
  show: (value: unknown) => string
  read: (text: string) => Read<T>
  save: (value: T) => void
}) {
  const text = ref(options.show(options.stored()))
  const reason = ref<string>()
  let seen = JSON.stringify(options.stored()) ?? ''
  watch(() => JSON.stringify(options.stored()) ?? '', (json) => {
    if (json === seen) return
    seen = json
    text.value = options.show(options.stored())
    reason.value = undefined
  })
  function commit(typed: string) {
    text.value = typed
    const read = options.read(typed)
    reason.value = read.ok ? undefined : read.reason
    if (!read.ok) return
    seen = JSON.stringify(read.value) ?? ''
    options.save(read.value)
  }
  return { text, reason, commit }
}
