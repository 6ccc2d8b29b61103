import { RUN_EVENT_TYPES } from '~~/engine/executor/event-types'

/** Follows a run over Server-Sent Events: each step's latest status and attempt, and the event log. */
export interface RunEventView {
  id: number
  type: string
  node_id?: string
  attempt?: number
  step?: { node_id: string, attempt: number, status: string, duration_ms?: number, error?: { message: string } }
  target?: string
  reason?: string
  result?: { status: string, verdict: string | null }
}

export function useRunStream() {
  const statuses = ref<Record<string, { status: string, attempt: number, duration_ms?: number }>>({})
  const events = ref<RunEventView[]>([])
  const finished = ref<RunEventView['result'] | null>(null)
  const stream = useEventStream(RUN_EVENT_TYPES, (type, event: RunEventView) => {
    apply(event)
    if (type === 'run.finished') stream.close()
  })

  function apply(event: RunEventView) {
    events.value.push(event)
    if (event.type === 'step.started' && event.node_id) statuses.value = { ...statuses.value, [event.node_id]: { status: 'running', attempt: event.attempt ?? 1 } }
    else if (event.step) {
      const { node_id: id, status, attempt, duration_ms } = event.step
      statuses.value = { ...statuses.value, [id]: { status, attempt, duration_ms } }
    }
    else if (event.type === 'step.retrying' && event.node_id) statuses.value = { ...statuses.value, [event.node_id]: { status: 'retrying', attempt: event.attempt ?? 1 } }
    else if (event.type === 'run.finished') finished.value = event.result ?? null
  }

  function follow(runId: string) {
    statuses.value = {}
    events.value = []
    finished.value = null
    stream.connect(`/api/runs/${runId}/events`)
  }

  return { statuses, events, finished, follow, stop: stream.close }
}
