import type { DatasetRunDetail } from '~/utils/dataset-api'

/** A dataset run's progress as the API gives it (`not_run`: case runs that ended without running: a budget spent, a cancel). */
export type DatasetRunProgressView = DatasetRunDetail['progress']

const DATASET_RUN_EVENTS = ['progress', 'finished'] as const

/** A dataset run followed over SSE while it goes on: its progress at each finished case; `onFinished` when it ends. */
export function useDatasetRunProgress(onFinished: (progress: DatasetRunProgressView) => void) {
  const progress = ref<DatasetRunProgressView | null>(null)
  const stream = useEventStream(DATASET_RUN_EVENTS, async (type, data: Partial<DatasetRunProgressView> & { id: string, status: string }) => {
    if (type === 'progress') {
      progress.value = { ...progress.value, ...data } as DatasetRunProgressView
      return
    }
    stream.close()
    // A run that ended before the stream opened says only its status: its counts are read from its stored cases.
    const ended = data.total === undefined
      ? (await $fetch<{ progress: DatasetRunProgressView }>(`/api/dataset-runs/${data.id}`)).progress
      : data as DatasetRunProgressView
    progress.value = { ...ended, status: data.status }
    onFinished(progress.value)
  })
  const running = computed(() => !!progress.value && progress.value.status === 'running')
  function follow(id: string, now?: DatasetRunProgressView) {
    progress.value = now ?? { id, status: 'running', total: 0, done: 0, not_run: 0, passed: 0, failed: 0, errored: 0 }
    stream.connect(`/api/dataset-runs/${id}/events`)
  }
  onBeforeUnmount(() => stream.close())
  return { progress, running, follow, close: stream.close }
}
