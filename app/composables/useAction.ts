import { ref, type Ref } from 'vue'
import { refusalText } from '~/utils/review'

/** A button's request to the API: whether it is under way, and why the API refused the last one. */
export interface Action {
  /** True while a request runs: the button that starts it is disabled. */
  busy: Readonly<Ref<boolean>>
  /** The API's refusal of the last request as text (refusalText), '' when there is none; the caller may put a problem it found first there. */
  message: Ref<string>
  /**
   * Runs `work` (the request and what follows it): clears the message, is busy until it settles, and
   * answers what it returned — or undefined when it threw, its refusal then the message.
   */
  run: <T>(work: () => Promise<T>) => Promise<T | undefined>
}

/**
 * One action's state, for a component whose button asks the API for something (give an item back,
 * delete a queue, export labels): `run` takes each request, so requests that share one busy flag
 * (a reviewer's label, skip and next item) may each answer their own type.
 */
export function useAction(): Action {
  const busy = ref(false)
  const message = ref('')
  async function run<T>(work: () => Promise<T>): Promise<T | undefined> {
    busy.value = true
    message.value = ''
    try {
      return await work()
    }
    catch (error) {
      message.value = refusalText(error)
      return undefined
    }
    finally {
      busy.value = false
    }
  }
  return { busy, message, run }
}
