import { objectOf, output } from '../outputs'

/** What a retry step outputs: where the loop stands. Free of zod: the editor's page reads it. */
export const retryOutputs = () => objectOf({
  attempt: output('number', 'the runs of the target so far'),
  exhausted: output('boolean', 'whether max_attempts was reached (the exhausted branch)'),
}, 'where the loop stands')
