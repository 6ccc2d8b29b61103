import type { Ref } from 'vue'

export interface RoundProgress { status: string, total: number, done: number, judged: number }

const ROUND_EVENTS = ['progress', 'round.finished'] as const

/** A round of an experiment followed over SSE while it goes on; `onFinished` gets its number when it ends. */
export function useRoundProgress(experimentId: Ref<string>, onFinished: (number: number) => void) {
  const progress = ref<RoundProgress | null>(null)
  let following = 0
  const stream = useEventStream(ROUND_EVENTS, (type, data: RoundProgress) => {
    progress.value = data
    if (type === 'round.finished') {
      stream.close()
      onFinished(following)
    }
  })
  const running = computed(() => !!progress.value && !['finished', 'failed', 'cancelled'].includes(progress.value.status))

  function follow(number: number) {
    following = number
    stream.connect(`/api/experiments/${experimentId.value}/rounds/${number}/events`)
  }
  /** A round just started: shown as running before its first event. */
  function followStarted(number: number) {
    progress.value = { status: 'running', total: 0, done: 0, judged: 0 }
    follow(number)
  }
  return { progress, running, follow, followStarted }
}
