import { RUN_EVENT_TYPES } from '~~/engine/executor/event-types'
import type { PresentedRunEvent } from '~~/server/utils/present'

/** A run event as the server sends it (server/utils/present.ts), its type derived from the function that presents it. */
export type RunEventView = PresentedRunEvent
type RunResult = Extract<RunEventView, { type: 'run.finished' }>['result']

/** Follows a run over Server-Sent Events: each step's latest status and attempt, and the event log. */
export function useRunStream() {
  const statuses = ref<Record<string, { status: string, attempt: number, duration_ms?: number }>>({})
  const events = ref<RunEventView[]>([])
  const finished = ref<RunResult | null>(null)
  const stream = useEventStream(RUN_EVENT_TYPES, (type, event: RunEventView) => {
    apply(event)
    if (type === 'run.finished') stream.close()
  })

  function apply(event: RunEventView) {
    events.value.push(event)
    if (event.type === 'step.started') statuses.value = { ...statuses.value, [event.node_id]: { status: 'running', attempt: event.attempt } }
    else if ('step' in event) {
      const { node_id: id, status, attempt, duration_ms } = event.step
      statuses.value = { ...statuses.value, [id]: { status, attempt, duration_ms } }
    }
    else if (event.type === 'step.retrying') statuses.value = { ...statuses.value, [event.node_id]: { status: 'retrying', attempt: event.attempt } }
    else if (event.type === 'run.finished') finished.value = event.result
  }

  function follow(runId: string) {
    statuses.value = {}
    events.value = []
    finished.value = null
    stream.connect(`/api/runs/${runId}/events`)
  }

  return { statuses, events, finished, follow, stop: stream.close }
}
