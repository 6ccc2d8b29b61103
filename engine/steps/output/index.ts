import { defineStep } from '../types'
import { outputSpec } from './spec'

export const outputStep = defineStep({
  ...outputSpec,
  async run({ config }) {
    return { output: { verdict: config.verdict ?? null, value: config.value ?? null } }
  },
})
