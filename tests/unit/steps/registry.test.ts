import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { builtinSteps, defaultRegistry, StepRegistry } from '../../../engine'

const stepsDir = join(import.meta.dirname, '../../../engine/steps')

describe('step registry', () => {
  it('registers every step folder, and each one describes itself', () => {
    const folders = readdirSync(stepsDir).filter(name => statSync(join(stepsDir, name)).isDirectory()).sort()
    expect(defaultRegistry.types().sort()).toEqual(folders)
    for (const step of builtinSteps) {
      expect(step.description.length).toBeGreaterThan(10)
      expect(step.label).toBeTruthy()
      expect(typeof step.run).toBe('function')
    }
  })

  it('refuses a type registered twice', () => {
    expect(() => new StepRegistry([...builtinSteps, builtinSteps[0]!])).toThrow('step type "input" is registered twice')
  })
})
