import { onBeforeUnmount, shallowRef } from 'vue'
import type { Problem, Warning } from '~/utils/validate'
import type { ValidateRequest } from '~/workers/validate.worker'

/**
 * The document's problems, found with the engine's own schemas in a Web Worker: validating a
 * workflow of hundreds of steps never holds up drawing or typing, and the schemas are not part of
 * the editor's first load. Only the answer to the latest request is kept.
 */
export function useWorkflowProblems() {
  const problems = shallowRef<Problem[]>([])
  const warnings = shallowRef<Warning[]>([])
  let worker: Worker | undefined
  let sent = 0
  /** The answer shown, as JSON: the same answer again (a step moved) leaves the canvas as it is. */
  let shown = '[[],[]]'

  function show(next: Problem[], nextWarnings: Warning[]) {
    const key = JSON.stringify([next, nextWarnings])
    if (key === shown) return
    shown = key
    problems.value = next
    warnings.value = nextWarnings
  }

  function start(): Worker {
    const started = new Worker(new URL('../workers/validate.worker.ts', import.meta.url), { type: 'module', name: 'judgeflow-validate' })
    started.onmessage = (event: MessageEvent<{ seq: number, problems: Problem[], warnings: Warning[] }>) => {
      if (event.data.seq === sent) show(event.data.problems, event.data.warnings)
    }
    return started
  }

  /** Validates the document; JSON carries it to the worker whatever proxies the store holds. */
  function validate(doc: unknown | null) {
    if (doc === null) {
      sent++
      show([], [])
      return
    }
    worker ??= start()
    worker.postMessage({ seq: ++sent, doc: JSON.stringify(doc) } satisfies ValidateRequest)
  }

  onBeforeUnmount(() => worker?.terminate())
  return { problems, warnings, validate }
}
