import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { builtinStepSpecs, builtinSteps, defaultRegistry, StepRegistry } from '../../../engine'

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

  it('agrees with the browser-safe spec list: the same types in the same order, each step carrying its spec', () => {
    expect(builtinSteps.map(step => step.type)).toEqual(builtinStepSpecs.map(spec => spec.type))
    for (const spec of builtinStepSpecs) {
      const step = builtinSteps.find(s => s.type === spec.type)!
      for (const [key, value] of Object.entries(spec)) expect(step[key as keyof typeof step], `${spec.type}.${key}`).toBe(value)
    }
  })

  it('refuses a type registered twice', () => {
    expect(() => new StepRegistry([...builtinSteps, builtinSteps[0]!])).toThrow('step type "input" is registered twice')
  })
})
