import { defineStep } from '../types'
import { retrySpec } from './spec'

export { MAX_RETRY_ATTEMPTS } from './spec'

export const retryStep = defineStep({
  ...retrySpec,
  async run({ config, runsOf }) {
    const runs = runsOf(config.target)
    if (runs >= config.max_attempts) return { output: { attempt: runs, exhausted: true }, branch: 'exhausted' }
    const reason = config.reason || `attempt ${runs} of "${config.target}" did not get through; running attempt ${runs + 1} of ${config.max_attempts}`
    return { output: { attempt: runs, exhausted: false }, rerun: { target: config.target, reason } }
  },
})
