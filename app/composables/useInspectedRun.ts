import type { InjectionKey, Ref } from 'vue'
import type { RunDetail } from '~/utils/runs'

const key: InjectionKey<Ref<RunDetail | null>> = Symbol('inspected run')

/** The editor hands the run it shows to the step panels below it (a step's last input and output). */
export function provideInspectedRun(run: Ref<RunDetail | null>) {
  provide(key, run)
}
/** The run the editor shows, read whole once it finished; null before a run or while one runs. */
export function useInspectedRun(): Ref<RunDetail | null> {
  return inject(key, ref(null))
}
