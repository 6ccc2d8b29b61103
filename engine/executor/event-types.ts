import type { RunEventType } from './types'

/**
 * Every event a run's stream carries (`RunEvent`'s types), by the names the server's event stream
 * sends them under and the page listens for. The check below fails the build when `RunEvent`
 * gains a type this list lacks.
 */
export const RUN_EVENT_TYPES = [
  'run.started', 'step.started', 'step.succeeded', 'step.failed', 'step.skipped', 'step.cancelled', 'step.retrying', 'run.finished',
] as const satisfies readonly RunEventType[]

type Unlisted = Exclude<RunEventType, typeof RUN_EVENT_TYPES[number]>
export const everyRunEventListed: [Unlisted] extends [never] ? true : Unlisted = true
