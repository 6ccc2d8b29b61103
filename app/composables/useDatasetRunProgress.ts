export interface DatasetRunProgressView { id: string, status: string, total: number, done: number, passed: number, failed: number, errored: number }

const DATASET_RUN_EVENTS = ['progress', 'finished'] as const

/** A dataset run followed over SSE while it goes on: its progress at each finished case; `onFinished` when it ends. */
export function useDatasetRunProgress(onFinished: (progress: DatasetRunProgressView) => void) {
  const progress = ref<DatasetRunProgressView | null>(null)
  const stream = useEventStream(DATASET_RUN_EVENTS, (type, data: DatasetRunProgressView) => {
    // `finished` carries the status alone: the counts stay those of the last progress.
    progress.value = { ...(progress.value ?? { total: 0, done: 0, passed: 0, failed: 0, errored: 0 }), ...data }
    if (type === 'finished') {
      stream.close()
      onFinished(progress.value)
    }
  })
  const running = computed(() => !!progress.value && progress.value.status === 'running')
  function follow(id: string, now?: DatasetRunProgressView) {
    progress.value = now ?? { id, status: 'running', total: 0, done: 0, passed: 0, failed: 0, errored: 0 }
    stream.connect(`/api/dataset-runs/${id}/events`)
  }
  onBeforeUnmount(() => stream.close())
  return { progress, running, follow, close: stream.close }
}
