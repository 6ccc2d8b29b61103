import { defineStep } from '../types'
import { compare } from './compare'
import { conditionSpec } from './spec'

export const conditionStep = defineStep({
  ...conditionSpec,
  branchOf: output => ((output as { result?: unknown } | undefined)?.result ? 'true' : 'false'),
  async run({ config }) {
    const result = compare(config.left, config.op, config.right, { ignoreCase: config.ignore_case })
    return { output: { result }, branch: result ? 'true' : 'false' }
  },
})
