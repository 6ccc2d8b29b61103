import { useEventSource } from '@vueuse/core'
import { parseOwnJson } from '~~/engine/text/own-json'

/**
 * Named Server-Sent Events, each handed to `onEvent` with its JSON data, in the order they came.
 * `connect` opens a stream (closing the one before); `close` ends it. A dropped connection is
 * resumed by the browser's EventSource itself, which sends the Last-Event-ID it last saw; a stream
 * the server refuses, or ends with 204, stays closed.
 */
export function useEventStream<E extends string>(events: readonly E[], onEvent: (type: E, data: any) => void) {
  const url = shallowRef<string>()
  const { event, data, open, close } = useEventSource(url, [...events], {
    immediate: false,
    autoConnect: false,
    serializer: { read: raw => (raw === undefined ? null : parseOwnJson(raw)) },
  })
  // Synchronous: the events of one network chunk are dispatched in one task, and each must be seen.
  watch(data, (value) => {
    if (event.value) onEvent(event.value as E, value)
  }, { flush: 'sync' })

  return {
    connect(to: string) {
      url.value = to
      open()
    },
    close,
  }
}
